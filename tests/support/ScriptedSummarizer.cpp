#include "ScriptedSummarizer.h"

#include <QTimer>

using namespace Qt::StringLiterals;

namespace wl::test {

ScriptedSummarizer::ScriptedSummarizer(const QString &model, QObject *parent)
    : Summarizer(parent)
    , m_model(model)
    , m_default{Step::Kind::Answer, answer(u"Keep working on the task."_s, u"N/A"_s, u"Default scripted summary."_s)}
{
}

QString ScriptedSummarizer::answer(const QString &intent, const QString &decisions, const QString &summary)
{
    return u"## Anchors\n### User Intent\n"_s + intent
        + u"\n### Execution Progress\n- scripted progress\n### Key Decisions\n"_s + decisions
        + u"\n### Tried Solutions\n- scripted attempt that failed\n### Next Steps\n- continue\n## Summary\n"_s + summary + u'\n';
}

void ScriptedSummarizer::summarize(quint64 requestId, const QString &systemPrompt, const QString &userPrompt)
{
    m_prompts.append({requestId, systemPrompt, userPrompt});
    const Step step = m_script.isEmpty() ? m_default : m_script.takeFirst();
    if (step.kind == Step::Kind::Hang)
        return;
    if (m_synchronous)
        deliver(requestId, step);
    else
        QTimer::singleShot(0, this, [this, requestId, step] { deliver(requestId, step); });
}

void ScriptedSummarizer::deliver(quint64 requestId, const Step &step)
{
    if (m_cancelled.contains(requestId))
        return;
    if (step.kind == Step::Kind::Answer)
        Q_EMIT finished(requestId, step.text);
    else
        Q_EMIT failed(requestId, step.text);
}

void ScriptedSummarizer::cancel(quint64 requestId)
{
    m_cancelled.append(requestId);
}

} // namespace wl::test
