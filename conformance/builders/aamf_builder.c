#include "aamf_builder.h"
