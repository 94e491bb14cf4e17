#pragma once

#include <QLoggingCategory>

// One logging category per engine component (enable with QT_LOGGING_RULES="waterline.*=true").
Q_DECLARE_LOGGING_CATEGORY(lcModel)
Q_DECLARE_LOGGING_CATEGORY(lcCompaction)
Q_DECLARE_LOGGING_CATEGORY(lcLlm)
Q_DECLARE_LOGGING_CATEGORY(lcTools)
Q_DECLARE_LOGGING_CATEGORY(lcStore)
Q_DECLARE_LOGGING_CATEGORY(lcAgent)
Q_DECLARE_LOGGING_CATEGORY(lcReplay)
Q_DECLARE_LOGGING_CATEGORY(lcProxy)
