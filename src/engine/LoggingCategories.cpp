#include "LoggingCategories.h"

Q_LOGGING_CATEGORY(lcModel, "waterline.model", QtWarningMsg)
Q_LOGGING_CATEGORY(lcCompaction, "waterline.compaction", QtWarningMsg)
Q_LOGGING_CATEGORY(lcLlm, "waterline.llm", QtWarningMsg)
Q_LOGGING_CATEGORY(lcTools, "waterline.tools", QtWarningMsg)
Q_LOGGING_CATEGORY(lcStore, "waterline.store", QtWarningMsg)
Q_LOGGING_CATEGORY(lcAgent, "waterline.agent", QtWarningMsg)
Q_LOGGING_CATEGORY(lcReplay, "waterline.replay", QtWarningMsg)
Q_LOGGING_CATEGORY(lcProxy, "waterline.proxy", QtWarningMsg)
