#include "semodel_builder.h"
