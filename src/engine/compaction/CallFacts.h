#pragma once

#include "ToolKind.h"

#include <QString>
#include <QStringList>

#include <array>

namespace wl {

struct ToolCall;

// What one tool call says for an extractive summary: its kind, the paths it names, its command, the
// steps a plan tool leaves open. Read from the first 4 KB of the arguments, without parsing the
// JSON of a large write.
struct CallFacts
{
    ToolKind kind = ToolKind::Other;
    QString name;
    QStringList paths;
    QString command;
    QStringList pendingSteps; // plan tools: the steps not completed, one line each
    bool pathsHaveNoSpace = true; // no path holds whitespace (so neither does any part of one)

    // TextCut::oneLine(command, max) for the widths summaries show it at, worked out once per call.
    static constexpr std::array<qsizetype, 3> kCommandWidths{60, 80, 100};
    std::array<QString, 3> commandLines;

    QString commandLine(qsizetype max) const;

    static CallFacts of(const ToolCall &call);
};

} // namespace wl
