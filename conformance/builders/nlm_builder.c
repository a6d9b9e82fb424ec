#include "nlm_builder.h"
