#pragma once

#include "Anchors.h"
#include "Checkpoint.h"
#include "CompactionRecord.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>

#include <optional>

namespace wl {

class ExtractiveFacts;
class Summarizer;
struct Message;

// What the fallback chain produced: always a summary (the extractive step cannot fail).
struct SummaryOutcome
{
    ParsedSummary parsed;
    SummarizerStep step = SummarizerStep::None;
    QString model;        // the LLM's name when one answered
    QStringList errors;   // one per failed step: "<step> (<model>): <reason>"
};

// The fallback chain of docs/COMPACTION.md section 5: (1) the configured summariser, (2) the
// session's main model if it is a different one, (3) the extractive summariser.
// An error, an empty, structurally empty, cut off or unparseable answer moves on to the next step.
// The timeout bounds all the LLM steps together: the extractive step runs at the latest when it is up.
// Never blocks: LLM answers arrive through signals; the timeout is a QTimer.
class SummaryChain : public QObject
{
    Q_OBJECT
public:
    // Either summariser may be null; neither is owned.
    SummaryChain(Summarizer *configured, Summarizer *mainModel, int timeoutMs, QObject *parent = nullptr);
    ~SummaryChain() override;

    // `previous`: the checkpoint being extended, if any. finished() may be emitted before start() returns.
    // The messages are read where they are: they must outlive the chain (the extractive step may
    // read them when the last LLM step fails, long after start()).
    // `positions`: each message's position in its session, for the extractive step (see
    // ExtractiveSummarizer::summarize); empty: their ids.
    void start(const QList<const Message *> &messages, const std::optional<Checkpoint> &previous,
               const QList<qint64> &positions = {});
    // Stops waiting; no finished() after this.
    void cancel();
    // Gives up on the step in flight (the user's "skip summary") and moves to the next one;
    // the record names it as a failed step. No-op when no LLM step is waiting.
    void skipStep();

    bool isFinished() const { return m_done; }
    const SummaryOutcome &outcome() const { return m_outcome; }

    // Step 3 on its own (synchronous, deterministic): the extractive summary of `messages`, told the
    // previous checkpoint's anchors, with the previous summary kept in front of the new one (bounded,
    // its newest part kept).
    // `facts` (optional) memoises per-message work across calls over the same history.
    static ParsedSummary extractive(const QList<const Message *> &messages, const Checkpoint *previous,
                                    const ExtractiveFacts *facts = nullptr, const QList<qint64> *positions = nullptr);

    // An answer with its headings but nothing under them: every anchor unknown, no summary.
    static bool isEmptySummary(const ParsedSummary &parsed);

Q_SIGNALS:
    void finished();

private:
    struct Step
    {
        QPointer<Summarizer> summarizer;
        SummarizerStep kind = SummarizerStep::None;
    };

    void runStep();
    void onAnswer(quint64 requestId, const QString &text);
    void onFailure(quint64 requestId, const QString &error);
    void onTimeout();
    void stepFailed(const QString &reason);
    void finish();
    QString stepLabel() const;

    QList<Step> m_steps;
    int m_stepIndex = 0;
    quint64 m_requestId = 0;
    int m_timeoutMs = 60000;
    QTimer m_timer;
    QElapsedTimer m_clock; // since start(): the timeout is for the whole chain
    QList<const Message *> m_messages;
    QList<qint64> m_positions;
    std::optional<Checkpoint> m_previous;
    QString m_systemPrompt;
    QString m_userPrompt;
    SummaryOutcome m_outcome;
    bool m_started = false;
    bool m_done = false;
    bool m_timeUp = false; // the chain's time ran out: no LLM step is tried after it
};

} // namespace wl
