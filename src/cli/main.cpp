// cuprobe VERB [ARGS...] (cli/cuprobe_main.h).
#include "cli/cuprobe_main.h"

int main(int argc, char** argv) { return cuprobe::cuprobe_main(argc, argv); }
