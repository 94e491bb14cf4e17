#include "UiLogging.h"

Q_LOGGING_CATEGORY(lcUi, "waterline.ui", QtWarningMsg)
