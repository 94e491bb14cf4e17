#include "tools/PinFactTool.h"

#include "tools/ToolArguments.h"
#include "tools/ToolRun.h"

using namespace Qt::StringLiterals;

namespace wl {

namespace {
QString problemWith(const QString &text)
{
    if (text.trimmed().isEmpty())
        return QCoreApplication::translate("wl::PinFactTool", "pin_fact: the text is empty");
    if (text.size() > PinFactTool::kMaxTextChars)
        return QCoreApplication::translate("wl::PinFactTool", "pin_fact: the text has %1 characters; a pin holds at most %2")
            .arg(text.size())
            .arg(PinFactTool::kMaxTextChars);
    return {};
}
} // namespace

ToolSpec PinFactTool::spec() const
{
    using namespace ToolArguments;
    return ToolSpec{u"pin_fact"_s,
                    u"Ask the user to pin a fact so that it stays in your context verbatim through every compaction "
                     "(summaries never drop it). Use it for an instruction or constraint you were told to remember. "
                     "The user approves or denies it."_s,
                    objectSchema(QJsonObject{{u"text"_s, stringProperty(u"The fact to keep, as it should be read later"_s)},
                                             {u"reason"_s, stringProperty(u"Why it must survive compaction"_s)}},
                                 {u"text"_s, u"reason"_s})};
}

ToolRun *PinFactTool::run(const QJsonObject &arguments, const ToolContext &context, QObject *parent)
{
    const QString text = ToolArguments::string(arguments, u"text"_s);
    const QString reason = ToolArguments::string(arguments, u"reason"_s);
    if (const QString problem = problemWith(text); !problem.isEmpty())
        return fail(problem, parent);
    if (!context.pinFact)
        return fail(tr("pin_fact: this session cannot pin"), parent);
    // The pin is stored on the tool's thread: the store opens a connection there.
    return ToolRun::inThread(name(), [pinFact = context.pinFact, text, reason](const std::atomic_bool &) {
        const QString refused = pinFact(text, reason);
        return refused.isEmpty() ? ToolResult::success(u"pinned; it stays in your context verbatim"_s) : ToolResult::error(refused);
    }, parent);
}

void PinFactTool::describe(const QJsonObject &arguments, const ToolContext &, ApprovalRequest &request) const
{
    const QString text = ToolArguments::string(arguments, u"text"_s);
    request.summary = tr("pin_fact: %1").arg(text.left(120));
    request.problem = problemWith(text);
}

} // namespace wl
