#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace wl {

struct Message;

// The last step of Emergency (docs/COMPACTION.md section 4): when offloading results is not enough,
// the largest messages left are shortened. A shortened message keeps its head and its end, says in
// between what was cut and which file holds the whole of it, and keeps its tool calls' arguments
// valid JSON objects. The history is not touched: the cut is an overlay (gate 3).
namespace EmergencyCut {

// What a shortened message shows instead of its content and its calls' arguments.
struct Cut
{
    QString content;
    QStringList arguments; // one per call, in order; empty when the message has no calls
    qint64 bytes = 0;      // the shown message's byte count (Message::computeBytes of it)
};

// The text saved as the whole message: its content, then one "[tool_call <name>(<id>)]: <arguments>"
// line per call.
QString wholeText(const Message &message);

// `message` shown at about `targetBytes` (its byte count as section 2 counts it), never below what a
// readable head, end and note take: content and arguments cut largest first, the note naming
// `wholePath`. nullopt when no cut makes it smaller.
std::optional<Cut> cut(const Message &message, qint64 targetBytes, const QString &wholePath);

// `message` as a view shows it under a cut: content and arguments replaced, the byte count cached.
void apply(Message &message, const QString &content, const QStringList &arguments);

// The text of the checkpoint Emergency's last step puts in place of the earlier context (the
// checkpoint and `messages` messages before the newest user message, `wholeBytes` bytes as the view
// showed them, kept whole in `wholePath`): a note saying so, then as much of the head and end of
// `checkpointText` as `targetBytes` leaves room for; when even the note does not fit, a shorter one
// that only names the file.
QString contextText(QStringView checkpointText, qint64 wholeBytes, int messages, qint64 targetBytes, const QString &wholePath);

// The newest user message as the note carries it whole, when the collapse covers it too.
QString carriedUserMessage(const QString &content);

// `arguments` (a tool call's JSON text) at most about `targetBytes`: its longest strings keep their
// head and end around a note naming `wholePath`. Always a JSON object: arguments that are not one
// become {"arguments_cut": "<head> <note> <end>"}. Exposed for tests.
QString cutArguments(const QString &arguments, qint64 targetBytes, const QString &wholePath);

} // namespace EmergencyCut

} // namespace wl
