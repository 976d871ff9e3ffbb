// SwiftPM needs a source file for a C target; the target is the header's declaration only.
#include "fuzz_driver.h"
