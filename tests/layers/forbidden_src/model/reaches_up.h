// A model file that reaches up into the analyses: check_layers.py must reject it.
#include "analysis/analyze.h"
