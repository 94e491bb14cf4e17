#include "BackgroundDraft.h"

#include "LoggingCategories.h"
#include "compaction/CompactionPass.h"
#include "compaction/Summarizer.h"
#include "compaction/SummaryChain.h"

using namespace Qt::StringLiterals;

namespace wl {

BackgroundDraft::BackgroundDraft(Summarizer *configured, Summarizer *mainModel, QObject *parent)
    : QObject(parent)
    , m_configured(configured)
    , m_mainModel(mainModel)
{
}

BackgroundDraft::~BackgroundDraft()
{
    cancelCall("the run is closed");
}

void BackgroundDraft::update(const Input &in)
{
    if (m_chain)
        return; // one call at a time: the next Warn tops up what this one misses
    // The Soft range as the preflight would make it now, on copies: the simulated offloads give the
    // placeholders the tier will show without writing a file.
    ContextOverlays overlays = in.overlays;
    ContextView view = in.view;
    const QList<Message> history = in.history; // shared, never modified: the pointers below stay valid
    const Offloader offloader = Offloader::simulated(in.sessionId);
    CompactionPass pass(in.systemPrompt, history, view.historyEnd(), in.policy, in.toolSchemaBytes, offloader, overlays,
                        view);
    const QString recordId = u"background-draft"_s;
    if (pass.maskInsteadOfSummary(Tier::Soft, recordId))
        return; // masking alone would bring Soft below its target: no summary to draft
    const std::optional<CompactionPass::SummaryJob> job = pass.prepareSummary(Tier::Soft, recordId);
    if (!job)
        return;

    if (m_ready) {
        if (!m_ready->isPrefixOf(job->previous, job->coversFrom, job->coversUpTo)) {
            qCInfo(lcAgent) << "background draft dropped: it no longer fits the Soft range";
            m_ready.reset();
        } else if (m_ready->coversUpTo == job->coversUpTo) {
            return; // current
        }
    }
    m_messages = pass.summaryMessages(*job, &m_made);
    QList<const Message *> toSummarise;
    std::optional<Checkpoint> previous = job->previous;
    if (m_ready) {
        for (const Message *message : std::as_const(m_messages))
            if (message->id > m_ready->coversUpTo)
                toSummarise.append(message);
        previous = m_ready->asPrevious();
    } else {
        toSummarise = m_messages;
    }
    m_pending = ReadyDraft{};
    m_pending.previous = job->previous;
    m_pending.coversFrom = job->coversFrom;
    m_pending.coversUpTo = job->coversUpTo;
    m_pending.requestIndex = in.requestIndex;
    if (toSummarise.isEmpty()) {
        // Only pinned messages were added: the draft covers the range as it is.
        if (m_ready) {
            m_ready->coversUpTo = job->coversUpTo;
            m_ready->requestIndex = in.requestIndex;
        }
        m_messages.clear();
        m_made.clear();
        return;
    }
    m_messages = toSummarise;
    // Held only while the call is in flight: the run's appends detach its history from this copy.
    m_history = history;
    qCDebug(lcAgent) << (m_ready ? "topping up the background draft with" : "drafting in the background:")
                     << m_messages.size() << "messages up to" << job->coversUpTo;
    m_chain = new SummaryChain(m_configured, m_mainModel, in.policy.summaryTimeoutMs, this);
    connect(m_chain, &SummaryChain::finished, this, &BackgroundDraft::onSummary);
    m_chain->start(m_messages, previous);
}

void BackgroundDraft::onSummary()
{
    SummaryChain *chain = m_chain;
    if (!chain)
        return;
    m_chain = nullptr;
    chain->deleteLater();
    const SummaryOutcome &outcome = chain->outcome();
    // The extractive step is the tier's last resort, not a draft: the tier writes its own then.
    if (outcome.step == SummarizerStep::Extractive || outcome.step == SummarizerStep::None) {
        qCWarning(lcAgent).noquote() << "the background draft failed and is dropped:" << outcome.errors.join(u"; "_s);
        m_messages.clear();
        m_made.clear();
        m_history.clear();
        return; // a ready draft (a prefix) stays; the next Warn tries the rest again
    }
    m_pending.parsed = outcome.parsed;
    m_pending.step = outcome.step;
    m_pending.model = outcome.model;
    m_ready = m_pending;
    m_messages.clear();
    m_made.clear();
    m_history.clear();
    qCInfo(lcAgent) << "background draft ready at request" << m_ready->requestIndex << "covering up to message"
                    << m_ready->coversUpTo;
    Q_EMIT drafted(m_ready->requestIndex);
}

void BackgroundDraft::cancelCall(const char *why)
{
    if (!m_chain)
        return;
    qCInfo(lcAgent) << "background draft call cancelled:" << why;
    m_chain->cancel();
    m_chain->deleteLater();
    m_chain = nullptr;
    m_messages.clear();
    m_made.clear();
    m_history.clear();
}

void BackgroundDraft::drop(const char *why)
{
    cancelCall(why);
    if (m_ready)
        qCDebug(lcAgent) << "background draft dropped:" << why;
    m_ready.reset();
}

} // namespace wl
