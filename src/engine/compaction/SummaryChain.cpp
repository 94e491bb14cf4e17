#include "SummaryChain.h"

#include "ExtractiveSummarizer.h"
#include "LoggingCategories.h"
#include "Summarizer.h"
#include "model/Message.h"

#include <QCoreApplication>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
// Bounded carry-over of earlier summaries when no LLM merges them.
constexpr qsizetype kPreviousSummaryChars = 2000;
} // namespace

SummaryChain::SummaryChain(Summarizer *configured, Summarizer *mainModel, int timeoutMs, QObject *parent)
    : QObject(parent)
    , m_timeoutMs(timeoutMs > 0 ? timeoutMs : 60000)
{
    if (configured)
        m_steps.append({configured, SummarizerStep::Configured});
    const bool sameModel = configured && mainModel
        && (configured == mainModel
            || (!configured->modelName().isEmpty() && configured->modelName() == mainModel->modelName()));
    if (mainModel && !sameModel)
        m_steps.append({mainModel, SummarizerStep::MainModel});
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &SummaryChain::onTimeout);
    for (const Step &step : std::as_const(m_steps)) {
        connect(step.summarizer.data(), &Summarizer::finished, this, &SummaryChain::onAnswer);
        connect(step.summarizer.data(), &Summarizer::failed, this, &SummaryChain::onFailure);
    }
}

SummaryChain::~SummaryChain()
{
    if (!m_done)
        cancel();
}

void SummaryChain::start(const QList<const Message *> &messages, const std::optional<Checkpoint> &previous,
                         const QList<qint64> &positions)
{
    Q_ASSERT(!m_started);
    m_started = true;
    m_clock.start();
    m_messages = messages;
    m_positions = positions;
    m_previous = previous;
    if (!m_steps.isEmpty()) {
        m_systemPrompt = Summarizer::systemInstruction();
        m_userPrompt = Summarizer::userPrompt(messages, previous ? &*previous : nullptr);
    }
    runStep();
}

void SummaryChain::cancel()
{
    m_timer.stop();
    if (m_requestId != 0 && m_stepIndex < m_steps.size() && m_steps[m_stepIndex].summarizer)
        m_steps[m_stepIndex].summarizer->cancel(m_requestId);
    m_requestId = 0;
    m_done = true;
}

void SummaryChain::skipStep()
{
    if (m_done || m_requestId == 0)
        return;
    m_timer.stop();
    const quint64 id = m_requestId;
    m_requestId = 0;
    if (Summarizer *s = m_steps[m_stepIndex].summarizer)
        s->cancel(id);
    stepFailed(QCoreApplication::translate("wl::SummaryChain", "skipped by the user"));
}

QString SummaryChain::stepLabel() const
{
    const Step &step = m_steps[m_stepIndex];
    const QString model = step.summarizer ? step.summarizer->modelName() : QString();
    return model.isEmpty() ? summarizerStepName(step.kind)
                           : summarizerStepName(step.kind) + u" ("_s + model + u')';
}

void SummaryChain::runStep()
{
    while (!m_done && m_stepIndex < m_steps.size()) {
        Summarizer *summarizer = m_steps[m_stepIndex].summarizer;
        if (!summarizer) {
            m_outcome.errors.append(summarizerStepName(m_steps[m_stepIndex].kind) + u": "_s
                                    + QCoreApplication::translate("wl::SummaryChain", "the summariser is gone"));
            ++m_stepIndex;
            continue;
        }
        // The timeout bounds the whole chain before the extractive step, not each LLM step.
        const qint64 left = m_timeoutMs - m_clock.elapsed();
        if (m_timeUp || left <= 0) {
            m_outcome.errors.append(stepLabel() + u": "_s
                                    + QCoreApplication::translate("wl::SummaryChain", "not tried: the summary timeout of %1 ms was used up")
                                          .arg(m_timeoutMs));
            ++m_stepIndex;
            continue;
        }
        const quint64 id = Summarizer::nextRequestId();
        m_requestId = id;
        m_timer.start(int(left));
        qCDebug(lcCompaction) << "summary request" << id << "to" << stepLabel();
        summarizer->summarize(id, m_systemPrompt, m_userPrompt);
        return; // the answer may already have been handled (synchronous summarisers)
    }
    if (m_done)
        return;
    m_outcome.parsed = extractive(m_messages, m_previous ? &*m_previous : nullptr, nullptr, &m_positions);
    m_outcome.step = SummarizerStep::Extractive;
    m_outcome.model.clear();
    finish();
}

void SummaryChain::onAnswer(quint64 requestId, const QString &text)
{
    if (m_done || requestId != m_requestId || m_requestId == 0)
        return;
    m_timer.stop();
    m_requestId = 0;
    if (text.trimmed().isEmpty()) {
        stepFailed(QCoreApplication::translate("wl::SummaryChain", "empty answer"));
        return;
    }
    ParsedSummary parsed = parseAnchorsAndSummary(text);
    if (!parsed.structured) {
        stepFailed(QCoreApplication::translate("wl::SummaryChain", "unparseable answer (no known header)"));
        return;
    }
    if (isEmptySummary(parsed)) {
        stepFailed(QCoreApplication::translate("wl::SummaryChain", "empty answer (headings with nothing under them)"));
        return;
    }
    m_outcome.parsed = parsed;
    m_outcome.step = m_steps[m_stepIndex].kind;
    m_outcome.model = m_steps[m_stepIndex].summarizer ? m_steps[m_stepIndex].summarizer->modelName() : QString();
    finish();
}

void SummaryChain::onFailure(quint64 requestId, const QString &error)
{
    if (m_done || requestId != m_requestId || m_requestId == 0)
        return;
    m_timer.stop();
    m_requestId = 0;
    stepFailed(error.isEmpty() ? QCoreApplication::translate("wl::SummaryChain", "unknown error") : error);
}

void SummaryChain::onTimeout()
{
    if (m_done || m_requestId == 0)
        return;
    const quint64 id = m_requestId;
    m_requestId = 0;
    m_timeUp = true; // the timer ran for what was left of the whole chain's time
    if (Summarizer *s = m_steps[m_stepIndex].summarizer)
        s->cancel(id);
    stepFailed(QCoreApplication::translate("wl::SummaryChain", "timeout after %1 ms").arg(m_timeoutMs));
}

void SummaryChain::stepFailed(const QString &reason)
{
    qCInfo(lcCompaction) << "summary step failed:" << stepLabel() << reason;
    m_outcome.errors.append(stepLabel() + u": "_s + reason);
    ++m_stepIndex;
    runStep();
}

void SummaryChain::finish()
{
    m_timer.stop();
    m_done = true;
    Q_EMIT finished();
}

namespace {
// The previous checkpoint's summary leads the new one. Its newest part is kept when it is too long
// (kPreviousSummaryChars, from the end): after repeated compactions it holds the earlier summaries
// oldest first, and the one just before this compaction is what matters most.
ParsedSummary withEarlier(ParsedSummary parsed, const Checkpoint *previous)
{
    if (!previous)
        return parsed;
    // Read where it is and written once into the result (no copy of it to cut and append to).
    QStringView earlier = QStringView(previous->summary).trimmed();
    if (earlier.isEmpty())
        return parsed;
    QStringView ellipsis;
    if (earlier.size() > kPreviousSummaryChars) {
        earlier = earlier.last(kPreviousSummaryChars);
        if (earlier.front().isLowSurrogate())
            earlier = earlier.sliced(1); // never keep half of a surrogate pair
        earlier = earlier.trimmed();
        ellipsis = u"\u2026";
    }
    if (parsed.summary.isEmpty())
        parsed.summary = ellipsis + earlier;
    else
        parsed.summary = ellipsis + earlier + u"\n\n" + parsed.summary;
    return parsed;
}
} // namespace

bool SummaryChain::isEmptySummary(const ParsedSummary &parsed)
{
    if (!QStringView(parsed.summary).trimmed().isEmpty())
        return false;
    return std::all_of(kAllAnchorKinds.cbegin(), kAllAnchorKinds.cend(),
                       [&](AnchorKind kind) { return isUnknownAnchorValue(parsed.anchors.value(kind)); });
}

ParsedSummary SummaryChain::extractive(const QList<const Message *> &messages, const Checkpoint *previous,
                                       const ExtractiveFacts *facts, const QList<qint64> *positions)
{
    // The earlier checkpoint's anchors go in, so what the new range cannot say (or says only as a
    // short follow-up, "continue") does not replace what it knew; its summary leads the new one.
    return withEarlier(ExtractiveSummarizer::summarize(messages, facts, previous ? &previous->anchors : nullptr, positions),
                       previous);
}

} // namespace wl
