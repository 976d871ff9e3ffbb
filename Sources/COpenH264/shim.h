// Umbrella header for the system library; our own code never lives here.
#include <stdbool.h>
#include <wels/codec_api.h>
#include <wels/codec_app_def.h>
#include <wels/codec_def.h>
