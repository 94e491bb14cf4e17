#include "Preflight.h"

#include "AuditLog.h"
#include "CompactionPass.h"
#include "LoggingCategories.h"
#include "Summarizer.h"
#include "SummaryChain.h"

#include <QCoreApplication>
#include <QTimer>
#include <QUuid>

using namespace Qt::StringLiterals;

namespace wl {

struct Preflight::Job
{
    CompactionPass::SummaryJob summary;
    QList<Message> made;               // the placeholders and stubs among `messages`
    QList<const Message *> messages;   // what the summariser reads; the rest points into m_in.history
    QList<qint64> positions;           // each one's position in the session (what a summary names)
    // With a ready draft: the messages after its coverage (what the summariser reads instead) and
    // the draft as their previous checkpoint.
    QList<const Message *> rest;
    QList<qint64> restPositions;
    std::optional<Checkpoint> draftAsPrevious;
    int draftedAtRequest = -1;
};

namespace {

QDateTime nowWithOffset()
{
    const QDateTime now = QDateTime::currentDateTime();
    return now.toOffsetFromUtc(now.offsetFromUtc());
}

void appendError(QString &error, const QString &text)
{
    if (!error.isEmpty())
        error += u"; "_s;
    error += text;
}

} // namespace

Preflight::Preflight(PreflightInput input, QObject *parent)
    : QObject(parent)
    , m_in(std::move(input))
{
}

Preflight::~Preflight() = default;

QString Preflight::stateKeyFor(Tier tier, const ContextOverlays &o)
{
    qsizetype compactionOffloads = 0;
    for (const OffloadOverlay &offload : o.offloads)
        compactionOffloads += offload.entry.gate == 1 ? 0 : 1;
    return tierName(tier) + u'|' + QString::number(o.checkpoints.size()) + u'|'
        + QString::number(o.checkpoints.isEmpty() ? 0 : o.checkpoints.constLast().coversUpToMessageId) + u'|'
        + QString::number(compactionOffloads);
}

void Preflight::setSummarizers(Summarizer *configured, Summarizer *mainModel)
{
    m_configured = configured;
    m_mainModel = mainModel;
}

PreflightResult Preflight::runWithoutLlm(PreflightInput input)
{
    Preflight preflight(std::move(input));
    preflight.start();
    Q_ASSERT(preflight.isFinished()); // no summariser: nothing to wait for
    return preflight.takeResult();
}

void Preflight::start()
{
    Q_ASSERT(!m_started);
    m_started = true;
    m_clock.start();
    begin();
}

void Preflight::begin()
{
    CompactionRecord &record = m_result.record;
    record.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    record.sessionId = m_in.sessionId;
    record.requestIndex = m_in.requestIndex;
    record.timestamp = nowWithOffset();

    // Moved, not shared: a shared copy would be copied whole by the pass's first new overlay, once
    // per request (O(session) each; the caller gets them back in the result).
    m_result.overlays = std::move(m_in.overlays);
    if (m_in.view)
        m_result.view = std::move(*m_in.view);
    else
        m_result.view = ContextView::build(m_in.systemPrompt, m_in.history, m_result.overlays);
    m_in.view.reset();
    m_result.view.appendUpTo(m_in.history, m_result.overlays, m_in.history.size());

    const qint64 schemaBytes = m_in.toolSchemaBytes >= 0 ? m_in.toolSchemaBytes : TokenEstimate::toolSchemaBytes(m_in.tools);
    m_offloader = std::make_unique<Offloader>(m_in.simulateOffloads ? Offloader::simulated(m_in.sessionId)
                                                                     : Offloader::disk(m_in.workspaceDir, m_in.sessionId));
    m_pass = std::make_unique<CompactionPass>(m_in.systemPrompt, m_in.history, m_result.view.historyEnd(), m_in.policy,
                                              schemaBytes, *m_offloader, m_result.overlays, m_result.view);
    m_pass->overheadTokens = m_in.overheadTokens;
    m_pass->tokenScale = m_in.tokenScale;

    Tier tier = m_pass->decide(m_in.force, &record.reason);
    if (const QString problem = m_in.policy.validate(); !problem.isEmpty()) {
        appendError(record.error, tr("invalid policy, nothing compacted: %1").arg(problem));
        tier = Tier::None;
    }
    record.tier = tier;
    record.strategy = m_in.policy.strategy;
    m_result.ratioBefore = record.reason.ratio;
    record.tokensBefore = m_result.view.tokens();
    record.msgsBefore = m_result.view.size();
    if (tier != Tier::None) {
        const ContextView::Split s = m_pass->split();
        record.preservedTail = m_result.view.size() - s.tailStart;
    }

    switch (tier) {
    case Tier::None:
        complete();
        return;
    case Tier::Warn:
        m_pass->warnOffload(record.id);
        complete();
        return;
    case Tier::Soft:
    case Tier::Full: {
        if (m_pass->maskInsteadOfSummary(tier, record.id)) {
            noteMaskShortfall();
            complete();
            return;
        }
        if (int(tier) <= int(m_in.rejectedTier)) {
            // Rejected in review at this tier: the history stays; the summary waits for the next tier.
            m_pass->warnOffload(record.id);
            appendError(record.error, tr("the summary was rejected in review at the %1 tier; it is drafted again at the next tier")
                                          .arg(tierName(m_in.rejectedTier)));
            complete();
            return;
        }
        auto job = m_pass->prepareSummary(tier, record.id);
        if (!job) {
            complete();
            return;
        }
        m_job = std::make_unique<Job>();
        m_job->summary = std::move(*job);
        m_job->messages = m_pass->summaryMessages(m_job->summary, &m_job->made, &m_job->positions);
        startSummary();
        return;
    }
    case Tier::Emergency: {
        if (m_pass->maskInsteadOfSummary(tier, record.id)) {
            appendError(record.error, tr("emergency: the context was at %1% of the window; masking tool results was enough")
                                          .arg(record.reason.ratio * 100, 0, 'f', 1));
            complete();
            return;
        }
        if (auto job = m_pass->prepareSummary(tier, record.id)) {
            QList<Message> made;
            QList<qint64> positions;
            const QList<const Message *> messages = m_pass->summaryMessages(*job, &made, &positions);
            const ParsedSummary parsed = SummaryChain::extractive(messages, job->previous ? &*job->previous : nullptr,
                                                                  nullptr, &positions);
            if (m_pass->applySummary(*job, parsed, tier, record.id)) {
                record.summarized = job->count();
                record.summaryText = parsed.summary;
            } else {
                appendError(record.error, m_pass->refusal);
            }
            record.summarizerStep = SummarizerStep::Extractive;
        }
        const bool below = m_pass->emergencyOffload(record.id);
        appendError(record.error, tr("emergency: the context was at %1% of the window; compacted without an LLM call")
                                      .arg(record.reason.ratio * 100, 0, 'f', 1));
        if (m_pass->cutMessages > 0)
            appendError(record.error, tr("cut %n message(s) to their head and end; the whole of each is in its file", nullptr,
                                         m_pass->cutMessages));
        if (m_pass->collapsedMessages > 0)
            appendError(record.error, tr("replaced the earlier context (%n message(s)) by a note naming %1, which holds it whole",
                                         nullptr, m_pass->collapsedMessages)
                                          .arg(m_pass->wholeContext.relativePath));
        if (!below)
            appendError(record.error, tr("still at or above the full threshold: only the tail is left"));
        m_result.notSent = m_pass->overWindow();
        if (!m_result.notSent.isEmpty())
            appendError(record.error, m_result.notSent);
        if (m_in.policy.reviewSummaries)
            appendError(record.error, tr("not reviewed: the emergency tier does not wait, it committed the extractive checkpoint"));
        complete();
        return;
    }
    }
}

bool Preflight::draftFits(const ReadyDraft &draft) const
{
    const CompactionPass::SummaryJob &job = m_job->summary;
    return draft.isPrefixOf(job.previous, job.coversFrom, job.coversUpTo);
}

void Preflight::startSummary()
{
    Q_EMIT summaryStarting();
    const std::optional<Checkpoint> *previous = &m_job->summary.previous;
    const QList<const Message *> *messages = &m_job->messages;
    const QList<qint64> *positions = &m_job->positions;
    if (m_in.policy.reviewSummaries && m_in.draft) {
        const ReadyDraft &draft = *m_in.draft;
        if (draftFits(draft)) {
            m_job->draftedAtRequest = draft.requestIndex;
            for (qsizetype i = 0; i < m_job->messages.size(); ++i) {
                if (m_job->messages[i]->id > draft.coversUpTo) {
                    m_job->rest.append(m_job->messages[i]);
                    m_job->restPositions.append(m_job->positions.value(i));
                }
            }
            if (m_job->rest.isEmpty()) {
                qCDebug(lcCompaction) << "the draft of request" << draft.requestIndex << "covers the whole range";
                m_result.record.summarizerStep = draft.step;
                m_result.record.summarizerModel = draft.model;
                // From the event loop, as a summariser's answer would come: the caller sees the
                // preflight start (compactionStarted) before its review opens.
                QTimer::singleShot(0, this, [this, parsed = draft.parsed] {
                    if (!m_finished)
                        openReview(parsed);
                });
                return;
            }
            qCDebug(lcCompaction) << "the draft of request" << draft.requestIndex << "is topped up with"
                                  << m_job->rest.size() << "messages";
            m_job->draftAsPrevious = draft.asPrevious();
            previous = &m_job->draftAsPrevious;
            messages = &m_job->rest;
            positions = &m_job->restPositions;
        } else {
            qCDebug(lcCompaction) << "the draft of request" << draft.requestIndex
                                  << "is stale (another checkpoint, or beyond this range): summarising it all";
        }
    }
    m_chain = new SummaryChain(m_configured, m_mainModel, m_in.policy.summaryTimeoutMs, this);
    connect(m_chain, &SummaryChain::finished, this, &Preflight::onSummary);
    m_chain->start(*messages, *previous, *positions);
}

void Preflight::noteMaskShortfall()
{
    const double ratio = m_pass->estimate().ratio();
    const double target = m_in.policy.maskTarget(m_result.record.tier);
    if (ratio >= target)
        appendError(m_result.record.error, tr("mask: still at %1% of the window after masking, at or above %2%; "
                                              "this strategy writes no summary before Emergency")
                                               .arg(ratio * 100, 0, 'f', 1)
                                               .arg(target * 100, 0, 'f', 1));
}

void Preflight::onSummary()
{
    const SummaryOutcome &outcome = m_chain->outcome();
    CompactionRecord &record = m_result.record;
    for (const QString &e : outcome.errors)
        appendError(record.error, tr("summary failed: %1").arg(e));
    record.summarizerStep = outcome.step;
    record.summarizerModel = outcome.model;
    if (m_in.policy.reviewSummaries) {
        openReview(outcome.parsed);
        return;
    }
    commitSummary(outcome.parsed, std::nullopt, false);
}

void Preflight::openReview(const ParsedSummary &parsed)
{
    const CompactionPass::SummaryJob &job = m_job->summary;
    const CompactionRecord &record = m_result.record;
    m_draft = SummaryDraft{};
    m_draft.recordId = record.id;
    m_draft.requestIndex = m_in.requestIndex;
    m_draft.tier = record.tier;
    m_draft.anchors = mergeAnchors(job.previous ? job.previous->anchors : Anchors{}, parsed.anchors).anchors;
    m_draft.summary = parsed.summary;
    m_draft.hasPrevious = job.previous.has_value();
    if (job.previous)
        m_draft.previousAnchors = job.previous->anchors;
    m_draft.replaced.reserve(m_job->messages.size());
    for (const Message *message : std::as_const(m_job->messages))
        m_draft.replaced.append(*message);
    m_draft.step = record.summarizerStep;
    m_draft.model = record.summarizerModel;
    m_draft.tokensBefore = m_result.view.tokens();
    m_draft.keptBytes = m_pass->bytesKeptBeside(job);
    m_draft.replacedBytes = m_result.view.bytes() - m_draft.keptBytes;
    m_draft.hiddenOffloads = CompactionPass::hiddenOffloads(m_result.overlays.offloads, job.coversUpTo);
    m_draft.folder = CompactionPass::hiddenOffloadFolder(m_result.overlays.offloads, job.coversUpTo);
    m_draft.draftedAtRequest = m_job->draftedAtRequest;
    m_draft.summarisedAtTier = m_job->draftedAtRequest >= 0 ? int(m_job->rest.size()) : 0;
    m_awaitingReview = true;
    qCDebug(lcCompaction) << "summary of" << job.count() << "messages waits for review";
    Q_EMIT reviewRequested(m_draft);
}

void Preflight::decideReview(const ReviewDecision &decision)
{
    if (!m_awaitingReview || m_finished)
        return;
    m_awaitingReview = false;
    if (decision.verdict == ReviewDecision::Verdict::Reject) {
        m_result.reviewRejected = true;
        appendError(m_result.record.error, tr("the summary was rejected in review; the history stays and the next tier tries again"));
        complete();
        return;
    }
    std::optional<CheckpointVersion> original;
    if (decision.anchors != m_draft.anchors || decision.summary != m_draft.summary) {
        CheckpointVersion v;
        v.version = 1;
        v.anchors = m_draft.anchors;
        v.summary = m_draft.summary;
        v.text = m_draft.checkpointText(m_draft.anchors, m_draft.summary);
        v.fromRequestIndex = m_in.requestIndex;
        v.createdAt = QDateTime::currentDateTime();
        original = std::move(v);
    }
    commitSummary(ParsedSummary{decision.anchors, decision.summary, true}, original, true);
}

void Preflight::commitSummary(const ParsedSummary &parsed, const std::optional<CheckpointVersion> &draft, bool reviewed)
{
    CompactionRecord &record = m_result.record;
    // A reviewed summary commits as the user accepted it: its anchors were merged when the draft
    // was shown, and merging them again would bring back a value the user edited or cleared.
    const Checkpoint *added = reviewed ? m_pass->applyReviewedSummary(m_job->summary, parsed, record.tier, record.id)
                                       : m_pass->applySummary(m_job->summary, parsed, record.tier, record.id);
    m_result.reviewAccepted = reviewed;
    if (added) {
        record.summarized = m_job->summary.count();
        record.summaryText = parsed.summary;
        if (draft) {
            // The edit is version 2 of this checkpoint; the summariser's draft stays as version 1.
            for (Checkpoint *cp : {&m_pass->newCheckpoints.last(), &m_result.overlays.checkpoints.last()}) {
                cp->version = 2;
                cp->reviewedDraft = draft;
            }
        }
    } else {
        appendError(record.error, m_pass->refusal);
        m_result.refusal = m_pass->refusal;
    }
    complete();
}

void Preflight::cancel()
{
    if (m_finished || !m_started)
        return;
    if (m_chain)
        m_chain->cancel();
    m_result.cancelled = true;
    appendError(m_result.record.error, m_awaitingReview ? tr("cancelled while the summary waited for review")
                                                        : tr("cancelled before the summary arrived"));
    m_awaitingReview = false;
    complete();
}

void Preflight::skipSummary()
{
    if (!m_finished && m_chain)
        m_chain->skipStep();
}

int Preflight::pendingSummaryCount() const
{
    return !m_finished && m_job ? m_job->summary.count() : 0;
}

void Preflight::complete()
{
    if (m_finished)
        return;
    CompactionRecord &record = m_result.record;
    const ContextView &view = m_result.view;
    m_result.newCheckpoints = m_pass->newCheckpoints;
    m_result.newOffloads = m_pass->newOffloads;
    record.offloaded = m_pass->offloaded;
    for (const QString &e : std::as_const(m_pass->offloadErrors))
        appendError(record.error, e);
    for (const QString &e : std::as_const(m_in.notedErrors))
        appendError(record.error, e);
    record.tokensAfter = view.tokens();
    record.msgsAfter = view.size();
    record.compressionRatio = record.tokensBefore > 0 ? double(record.tokensAfter) / double(record.tokensBefore) : 1.0;
    if (!m_pass->newCheckpoints.isEmpty()) {
        record.anchors = m_pass->anchorMerge.anchors;
        record.anchorChanges = m_pass->anchorMerge.changes;
    } else {
        if (!m_result.overlays.checkpoints.isEmpty())
            record.anchors = m_result.overlays.checkpoints.constLast().anchors;
        record.anchorChanges.fill(AnchorChange::Unchanged);
    }
    record.changed = !m_result.newCheckpoints.isEmpty() || !m_result.newOffloads.isEmpty();
    m_result.ratioAfter = m_pass->estimate().ratio();
    record.durationMs = m_clock.elapsed();

    m_result.stateKey = stateKeyFor(record.tier, m_result.overlays);
    m_result.shouldRecord = m_in.userRequested || m_in.force || !m_in.notedErrors.isEmpty()
        || (record.tier != Tier::None && (record.changed || m_result.stateKey != m_in.lastStateKey));
    if (m_result.shouldRecord && !m_in.auditPath.isEmpty()) {
        QString error;
        if (!AuditLog::append(m_in.auditPath, record, &error)) {
            m_result.auditError = error;
            qCWarning(lcCompaction) << "audit append failed:" << error;
        }
    }
    if (record.tier != Tier::None)
        qCDebug(lcCompaction) << "preflight" << tierName(record.tier) << "tokens" << record.tokensBefore << "->"
                              << record.tokensAfter << "changed" << record.changed;
    m_finished = true;
    Q_EMIT finished();
}

} // namespace wl
