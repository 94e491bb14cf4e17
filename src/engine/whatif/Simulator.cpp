#include "Simulator.h"

#include "Paths.h"
#include "compaction/CompactionPass.h"
#include "compaction/ContextView.h"
#include "compaction/ExtractiveSummarizer.h"
#include "compaction/SummaryChain.h"
#include "compaction/TextSink.h"
#include "compaction/TokenEstimate.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>

#include <algorithm>
#include <numeric>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// The history with ids ascending and positive, as views need; copied once only when it is not.
QList<Message> withUsableIds(const QList<Message> &history)
{
    bool ok = true;
    qint64 last = 0;
    for (const Message &m : history) {
        if (m.id <= last) {
            ok = false;
            break;
        }
        last = m.id;
    }
    if (ok)
        return history;
    QList<Message> copy = history;
    for (qsizetype i = 0; i < copy.size(); ++i)
        copy[i].id = i + 1;
    return copy;
}

// The pins with their message ids in the replay's history (withUsableIds may have renumbered it);
// a pin of a message the history does not hold keeps its text but protects nothing.
QList<Pin> pinsFor(const QList<Pin> &pins, const QList<Message> &original, const QList<Message> &usable)
{
    if (pins.isEmpty() || original.constData() == usable.constData())
        return pins;
    QHash<qint64, qint64> renumbered;
    for (qsizetype i = 0; i < original.size() && i < usable.size(); ++i)
        renumbered.insert(original[i].id, usable[i].id);
    QList<Pin> out = pins;
    for (Pin &pin : out) {
        if (pin.kind != Pin::Kind::Note)
            pin.messageId = renumbered.value(pin.messageId, 0);
    }
    return out;
}

QString fixedSizeText(qint64 tokens)
{
    const QString marker = u"[Context Compaction]\n"_s;
    const qsizetype filler = std::max<qsizetype>(0, qsizetype(TokenEstimate::bytesForTokens(tokens)) - marker.size());
    return marker + QString(filler, u'x');
}

// What Preflight writes into the record when mask leaves a Soft or Full above its target.
QString maskShortfall(double ratio, double target)
{
    return QCoreApplication::translate("wl::Simulator", "mask: still at %1% of the window after masking, at or above %2%; "
                                                        "this strategy writes no summary before Emergency")
        .arg(ratio * 100, 0, 'f', 1)
        .arg(target * 100, 0, 'f', 1);
}

QJsonObject tiersJson(const std::array<int, 5> &tiers)
{
    QJsonObject o;
    for (Tier t : {Tier::None, Tier::Warn, Tier::Soft, Tier::Full, Tier::Emergency})
        o.insert(tierName(t), tiers[size_t(t)]);
    return o;
}

} // namespace

SimulationResult Simulator::simulate(const QString &systemPrompt, const QList<Message> &history,
                                     const QList<qsizetype> &requests, const CompactionPolicy &policy,
                                     SummaryModel summaryModel)
{
    Input in;
    in.systemPrompt = systemPrompt;
    in.history = history;
    in.requests = requests;
    in.policy = policy;
    in.summaryModel = summaryModel;
    return simulate(in);
}

SimulationResult Simulator::simulate(const Input &input)
{
    SimulationResult result;
    result.m_systemPrompt = input.systemPrompt;
    result.m_history = withUsableIds(input.history);
    const QList<Message> &history = result.m_history;
    const CompactionPolicy &policy = input.policy;
    const QString sessionId = Paths::isSafePathComponent(input.sessionId) ? input.sessionId : u"simulation"_s;
    const Offloader offloader = Offloader::simulated(sessionId, input.offloads.get());
    const qint64 schemaBytes = input.toolSchemaBytes >= 0 ? input.toolSchemaBytes : TokenEstimate::toolSchemaBytes(input.tools);

    qint64 fixedTokens = input.summaryModel.tokens;
    if (fixedTokens <= 0) {
        const auto &recorded = input.recordedSummaryTokens;
        fixedTokens = recorded.isEmpty() ? 600
                                         : std::accumulate(recorded.cbegin(), recorded.cend(), qint64(0)) / recorded.size();
    }

    const std::shared_ptr<const ExtractiveFacts> facts =
        input.extractiveFacts ? input.extractiveFacts : std::make_shared<const ExtractiveFacts>();

    // The extractive summary of a job, read from the history in place.
    QList<Message> made;
    QList<qint64> positions; // what the summary names messages by: their place in the session
    auto summarize = [&](const CompactionPass &pass, const CompactionPass::SummaryJob &job) {
        const QList<const Message *> messages = pass.summaryMessages(job, &made, &positions);
        return SummaryChain::extractive(messages, job.previous ? &*job.previous : nullptr, facts.get(), &positions);
    };

    // The recorded checkpoints by the range they cover.
    QHash<std::pair<qint64, qint64>, qsizetype> recordedByRange;
    for (qsizetype i = 0; i < input.recordedCheckpoints.size(); ++i) {
        const Checkpoint &cp = input.recordedCheckpoints[i];
        if (!cp.text.isEmpty())
            recordedByRange.insert({cp.coversFromMessageId, cp.coversUpToMessageId}, i);
    }
    auto recordedFor = [&](const CompactionPass::SummaryJob &job) -> const Checkpoint * {
        const auto it = recordedByRange.constFind({job.coversFrom, job.coversUpTo});
        return it == recordedByRange.cend() ? nullptr : &input.recordedCheckpoints[*it];
    };
    // An edited recorded checkpoint as request `r` carried it (the version in force when it went out).
    auto asSentAt = [&input](const Checkpoint &cp, qsizetype r) {
        return cp.versions.isEmpty() ? cp : cp.asSent(input.requestIndexes.value(r, int(r)), input.requestTimes.value(r));
    };

    ContextOverlays overlays;
    result.m_pins = pinsFor(input.pins, input.history, history);
    for (qsizetype i = 0; i < result.m_pins.size(); ++i)
        result.m_pinsFrom.append(std::max<qsizetype>(0, input.pinsFrom.value(i, 0)));
    overlays.pins = result.pinsAt(0);
    ContextView view = ContextView::build(input.systemPrompt, history, overlays, 0);
    const bool validPolicy = policy.isValid();
    result.rows.reserve(input.requests.size());
    result.m_marks.reserve(input.requests.size());

    for (qsizetype r = 0; r < input.requests.size(); ++r) {
        const qsizetype end = std::clamp<qsizetype>(input.requests[r], view.historyEnd(), history.size());
        // A pin the recording carried from this request on (made while the session ran).
        if (r > 0 && result.m_pinsFrom.contains(r)) {
            overlays.pins = result.pinsAt(r);
            view = ContextView::build(input.systemPrompt, history, overlays, view.historyEnd());
        }
        if (validPolicy)
            CompactionPass::offloadAtToolTime(history, view.historyEnd(), end, policy, offloader, overlays, &result.m_offloads);
        view.appendUpTo(history, overlays, end);
        if (!overlays.checkpoints.isEmpty() && !overlays.checkpoints.constLast().versions.isEmpty()) {
            Checkpoint sent = asSentAt(overlays.checkpoints.constLast(), r);
            if (sent.version != overlays.checkpoints.constLast().version) {
                sent.textBytes = TokenEstimate::utf8Bytes(sent.text);
                overlays.checkpoints.last() = sent;
                view = ContextView::build(input.systemPrompt, history, overlays, end);
                result.m_versionSwaps.append({r, overlays.checkpoints.size() - 1, std::move(sent)});
            }
        }
        const qint64 requestSchemaBytes = input.requestSchemaBytes.value(r, -1) >= 0 ? input.requestSchemaBytes[r] : schemaBytes;
        CompactionPass pass(input.systemPrompt, history, end, policy, requestSchemaBytes, offloader, overlays, view);
        pass.deferCheckpointText = true; // made on demand by overlaysAt()
        pass.recordedTime = true;
        pass.overheadTokens = input.overheadTokens;
        pass.tokenScale = input.tokenScale;
        SimulationRow row;
        row.index = int(r);
        qint64 summaryReadTokens = 0;
        TierReason reason;
        const Tier tier = validPolicy ? pass.decide(false, &reason) : Tier::None;
        row.tier = tier;
        row.ratioBefore = reason.ratio;
        row.tokensBefore = view.tokens();
        row.msgsBefore = view.size();
        QString recordId; // "simulated-<r>", written without QString::number's general conversion
        if (tier != Tier::None) {
            recordId.reserve(32);
            recordId += u"simulated-"_s;
            text::TextAppender appender(recordId);
            text::putNumber(appender, r);
        }

        if (tier == Tier::Warn) {
            pass.warnOffload(recordId);
        } else if (tier == Tier::Soft || tier == Tier::Full) {
            const bool extractive = input.summaryModel.kind == SummaryModel::Kind::Extractive;
            if (pass.maskInsteadOfSummary(tier, recordId)) {
                if (const double target = policy.maskTarget(tier); pass.estimate().ratio() >= target)
                    row.error = maskShortfall(pass.estimate().ratio(), target);
            } else if (auto job = pass.prepareSummary(tier, recordId)) {
                qint64 readBytes = 0;
                for (int i = job->from; i < job->to; ++i)
                    readBytes += view.items()[i].bytes;
                const Checkpoint *added = nullptr;
                const Checkpoint *recorded = recordedFor(*job);
                if (recorded)
                    added = pass.applyRecordedCheckpoint(*job, asSentAt(*recorded, r), tier, recordId);
                else if (extractive)
                    added = pass.applySummary(*job, summarize(pass, *job), tier, recordId);
                else
                    added = pass.applyCheckpointText(*job, fixedSizeText(fixedTokens), tier, recordId);
                if (added)
                    row.summarized = job->count();
                else
                    row.error = pass.refusal;
                ++result.totals.summaryCalls;
                const qint64 read = TokenEstimate::tokensForBytes(readBytes);
                result.totals.summaryInputTokens += read;
                // A call a provider bills: a summary an LLM wrote (the source agent's, or the fixed-size
                // model of one), not the extractive summariser's.
                if (recorded ? !input.unbilledRecordIds.contains(recorded->recordId) : !extractive)
                    summaryReadTokens = read;
            }
        } else if (tier == Tier::Emergency) {
            ++result.totals.emergencies;
            if (!pass.maskInsteadOfSummary(tier, recordId)) {
                if (auto job = pass.prepareSummary(tier, recordId)) {
                    const Checkpoint *recorded = recordedFor(*job);
                    const Checkpoint *added = recorded ? pass.applyRecordedCheckpoint(*job, asSentAt(*recorded, r), tier, recordId)
                                                       : pass.applySummary(*job, summarize(pass, *job), tier, recordId);
                    if (added)
                        row.summarized = job->count();
                    else
                        row.error = pass.refusal;
                }
                if (!pass.emergencyOffload(recordId))
                    row.error = QCoreApplication::translate("wl::Simulator", "still at or above the full threshold: only the tail is left");
            }
        }
        if (!pass.offloadErrors.isEmpty())
            row.error = pass.offloadErrors.join(u"; "_s);
        if (tier == Tier::Emergency) {
            if (const QString why = pass.overWindow(); !why.isEmpty()) {
                row.sent = false;
                row.error = row.error.isEmpty() ? why : row.error + u"; "_s + why;
                ++result.totals.notSent;
            }
        }

        const TokenEstimate after = pass.estimate();
        row.ratioAfter = after.ratio();
        row.tokensAfter = view.tokens();
        row.totalTokensAfter = after.totalTokens();
        row.composition = ViewComposition::of(view, after);
        row.msgsAfter = view.size();
        row.offloaded = int(pass.offloaded.size());
        if (row.sent) {
            result.totals.tokensSent += after.viewTokens() + after.toolSchemaTokens() + after.overheadTokens();
            result.totals.peakRatio = std::max(result.totals.peakRatio, row.ratioAfter);
        }
        result.totals.peakRatioBefore = std::max(result.totals.peakRatioBefore, row.ratioBefore);
        ++result.totals.tiers[size_t(tier)];
        if (input.observer)
            input.observer(Step{int(r), history, view, overlays, TokenEstimate::tokensForBytes(requestSchemaBytes) + pass.overheadTokens,
                                summaryReadTokens});
        result.m_checkpoints.append(pass.newCheckpoints);
        result.m_offloads.append(pass.newOffloads);
        result.m_marks.append({end, result.m_checkpoints.size(), result.m_offloads.size()});
        result.rows.append(row);
    }
    result.totals.requests = int(result.rows.size());
    result.totals.window = policy.contextWindow;
    result.totals.offloads = int(result.m_offloads.size());
    return result;
}

QList<Pin> SimulationResult::pinsAt(qsizetype row) const
{
    QList<Pin> out;
    for (qsizetype i = 0; i < m_pins.size(); ++i)
        if (m_pinsFrom.value(i, 0) <= row)
            out.append(m_pins[i]);
    return out;
}

ContextOverlays SimulationResult::overlaysAt(int row, bool allTexts) const
{
    ContextOverlays o;
    if (row < 0 || row >= m_marks.size())
        return o;
    const Mark &mark = m_marks[row];
    o.pins = pinsAt(row);
    o.checkpoints = m_checkpoints.mid(0, mark.checkpoints);
    for (const VersionSwap &swap : m_versionSwaps)
        if (swap.row <= row && swap.index < o.checkpoints.size())
            o.checkpoints[swap.index] = swap.checkpoint;
    for (qsizetype i = 0; i < mark.offloads; ++i)
        o.offloads.insert(m_offloads[i].messageId, m_offloads[i]);
    // The replay left checkpoint texts to be made when asked for; a view needs only the newest.
    for (qsizetype i = allTexts ? 0 : std::max<qsizetype>(0, o.checkpoints.size() - 1); i < o.checkpoints.size(); ++i)
        CompactionPass::completeCheckpointText(o.checkpoints[i], o);
    return o;
}

ContextOverlays SimulationResult::overlaysAt(int row) const
{
    return overlaysAt(row, true);
}

QList<Message> SimulationResult::viewAt(int row) const
{
    if (row < 0 || row >= m_marks.size())
        return {};
    const ContextOverlays o = overlaysAt(row, false);
    return ContextView::build(m_systemPrompt, m_history, o, m_marks[row].historyEnd).messages(m_history, o);
}

ViewIds SimulationResult::viewMessageIdsAt(int row) const
{
    if (row < 0 || row >= m_marks.size())
        return {};
    const ContextOverlays o = overlaysAt(row, false);
    return ContextView::build(m_systemPrompt, m_history, o, m_marks[row].historyEnd).historyMessageIds();
}

QJsonObject SimulationResult::toJson() const
{
    QJsonArray requests;
    for (const SimulationRow &r : rows) {
        requests.append(QJsonObject{
            {u"index"_s, r.index},
            {u"ratio_before"_s, r.ratioBefore},
            {u"ratio_after"_s, r.ratioAfter},
            {u"tier"_s, tierName(r.tier)},
            {u"tokens_before"_s, double(r.tokensBefore)},
            {u"tokens_after"_s, double(r.tokensAfter)},
            {u"msgs_before"_s, r.msgsBefore},
            {u"msgs_after"_s, r.msgsAfter},
            {u"offloaded"_s, r.offloaded},
            {u"summarized"_s, r.summarized},
            {u"error"_s, r.error},
            {u"sent"_s, r.sent},
        });
    }
    return QJsonObject{
        {u"requests"_s, requests},
        {u"totals"_s, QJsonObject{
             {u"requests"_s, totals.requests},
             {u"summary_calls"_s, totals.summaryCalls},
             {u"peak_ratio"_s, totals.peakRatio},
             {u"emergencies"_s, totals.emergencies},
             {u"tokens_sent"_s, double(totals.tokensSent)},
             {u"summary_input_tokens"_s, double(totals.summaryInputTokens)},
             {u"peak_ratio_before"_s, totals.peakRatioBefore},
             {u"tiers"_s, tiersJson(totals.tiers)},
             {u"not_sent"_s, totals.notSent},
             {u"offloads"_s, totals.offloads},
             {u"window"_s, double(totals.window)},
         }},
    };
}

} // namespace wl
