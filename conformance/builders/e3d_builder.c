#include "e3d_builder.h"
