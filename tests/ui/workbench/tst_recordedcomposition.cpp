// The recorded requests' compositions, as the loader computes them for the demo session.
#include "context/ContextModels.h"
#include "context/ContextPanel.h"
#include "timeline/TimelineModel.h"
#include "compaction/PinnedSection.h"
#include "compaction/TokenEstimate.h"
#include "store/PinBudget.h"
#include "thresholds/ThresholdsPanel.h"
#include "whatif/WhatIfSession.h"
#include "workbench/DemoSession.h"
#include "workbench/LoadedSession.h"
#include "workbench/SessionLoader.h"

#include "replay/SessionImporter.h"
#include "score/RecordedRequests.h"
#include "store/SessionStore.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

class TestRecordedComposition : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void eachRequestAsItWasSent();
    void theDocksReadTheSame();
    void anEditedCheckpointAsEachRequestSentIt();
    void aPinMadeWhileRecordingIsInTheRecordedViewsAndTheWhatIf();
    void aPinMadeAfterTheRecordingIsSaidAndMeasured();
    void anImportAsItsSourceSentIt();
    void theContextDockSaysWhereTheWindowComesFrom();

private:
    // A copy of the demo's database with `pin` added, loaded.
    bool loadWithPin(const QString &name, Pin pin, LoadedSession *out);
    // `transcript` (under tests/data/replay) imported as it is into a new database `db`: its session id.
    QString importInto(const QString &db, const QString &transcript);

    QTemporaryDir m_dir;
    LoadedSession m_session;
    QString m_databasePath;
};

void TestRecordedComposition::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const DemoSession::Result demo = DemoSession::ensure(m_dir.filePath(u"demo"_s));
    QVERIFY2(demo.ok, qPrintable(demo.error));
    QString error;
    QVERIFY2(SessionLoader::loadNow(demo.databasePath, demo.sessionId, &m_session, &error), qPrintable(error));
    m_databasePath = demo.databasePath;
    QVERIFY(m_session.requestCount() > 100);
}

void TestRecordedComposition::eachRequestAsItWasSent()
{
    const CompactionPolicy &policy = m_session.policy;
    QCOMPARE(m_session.compositions.size(), m_session.requests.size());
    bool sawCheckpoint = false, sawOffload = false;
    for (qsizetype i = 0; i < m_session.requests.size(); ++i) {
        const ViewComposition &c = m_session.compositions.at(i);
        const RequestRecord &r = m_session.requests.at(i);
        const QByteArray at = QByteArray("request ") + QByteArray::number(i);
        // What the request's record says it sent (by the rule, then calibrated: the calibration is a
        // part of its own), with the reserved output: the timeline's sent line.
        const qint64 calibrated = TokenEstimate::scaledBy(r.estimateTokens, m_session.replay.tokenScale);
        QCOMPARE(c.tokens(ViewComposition::Part::Calibration), calibrated - r.estimateTokens);
        const qint64 sent = calibrated + (policy.countToolSchemas ? r.toolSchemaTokens : 0)
            + m_session.replay.overheadTokens + policy.reservedOutput;
        const QByteArray why = at + ": " + QByteArray::number(c.used()) + " != " + QByteArray::number(sent);
        QVERIFY2(c.used() == sent, why.constData());
        QVERIFY2(c.total() == std::max(policy.contextWindow, c.used()), at.constData());
        sawCheckpoint = sawCheckpoint || c.tokens(ViewComposition::Part::Checkpoint) > 0;
        sawOffload = sawOffload || c.tokens(ViewComposition::Part::Offloaded) > 0;
    }
    QVERIFY(sawCheckpoint);
    QVERIFY(sawOffload);
}

void TestRecordedComposition::theDocksReadTheSame()
{
    const QList<TimelineRow> rows = m_session.timelineRows();
    for (int i : {0, int(rows.size()) / 2, int(rows.size()) - 1}) {
        QCOMPARE(rows.at(i).composition, m_session.compositions.at(i));
        // The Context dock's snapshot, and a view built from scratch from its overlays, agree.
        const ContextSnapshot s = m_session.contextSnapshot(i);
        QCOMPARE(s.composition, m_session.compositions.at(i));
        const ViewComposition built = m_session.compositionOf(ContextView::build(s.systemPrompt, s.history, s.overlays, s.historyEnd), i);
        QCOMPARE(built, s.composition);
    }
}

// A checkpoint edited at request k (a new version for the requests from k on): the requests before
// k carried the text the compaction made, and the Context dock and the compositions say so.
void TestRecordedComposition::anEditedCheckpointAsEachRequestSentIt()
{
    const QString copy = m_dir.filePath(u"edited.db"_s);
    QVERIFY(QFile::copy(m_databasePath, copy));
    // A checkpoint still the newest two requests after it was made (only the newest is in a view).
    auto madeAt = [this](const Checkpoint &cp) {
        for (const CompactionRecord &r : m_session.records)
            if (r.id == cp.recordId)
                return r.requestIndex;
        return -1;
    };
    Checkpoint original;
    int made = -1;
    const QList<Checkpoint> &all = m_session.overlays.checkpoints;
    for (qsizetype i = 0; i + 1 < all.size() && made < 0; ++i) {
        const int at = madeAt(all[i]);
        if (at >= 0 && madeAt(all[i + 1]) > at + 3) {
            original = all[i];
            made = at;
        }
    }
    QVERIFY(made >= 0);
    const int editedFrom = made + 2;
    {
        SessionStore store;
        QString error;
        QVERIFY2(store.open(copy, &error), qPrintable(error));
        CheckpointVersion edit;
        edit.anchors = original.anchors;
        edit.summary = u"EDITED: a much longer summary than the one the compaction made. "_s.repeated(20);
        edit.text = checkpointMessageText(edit.anchors, edit.summary, {});
        edit.fromRequestIndex = editedFrom;
        QCOMPARE(store.addCheckpointVersion(original.id, edit, &error).value_or(-1), 2);
    }
    LoadedSession edited;
    QString error;
    QVERIFY2(SessionLoader::loadNow(copy, m_session.info.id, &edited, &error), qPrintable(error));
    auto shownAt = [&edited, &original](int request) {
        for (const Checkpoint &cp : edited.contextSnapshot(request).overlays.checkpoints)
            if (cp.id == original.id)
                return cp;
        return Checkpoint{};
    };
    for (int i = made; i < editedFrom; ++i) {
        QCOMPARE(shownAt(i).version, 1);
        QCOMPARE(shownAt(i).text, original.text);
        // What those requests sent is what their records say: the composition has not moved.
        QCOMPARE(edited.compositions.at(i), m_session.compositions.at(i));
    }
    QCOMPARE(shownAt(editedFrom).version, 2);
    QVERIFY(shownAt(editedFrom).summary.startsWith(u"EDITED"_s));
    // From the edit on, the composition counts the edited text (it lists no offloaded references).
    QVERIFY(edited.compositions.at(editedFrom).tokens(ViewComposition::Part::Checkpoint)
            != m_session.compositions.at(editedFrom).tokens(ViewComposition::Part::Checkpoint));
    QCOMPARE(edited.compositions.at(editedFrom).tokens(ViewComposition::Part::Checkpoint),
             edited.compositionOf(ContextView::build(edited.systemPrompt, edited.history, edited.overlaysAt(editedFrom),
                                                     edited.historyEndOf(editedFrom)), editedFrom)
                 .tokens(ViewComposition::Part::Checkpoint));
    // The newest version is the checkpoint's own (the docks that list checkpoints show it).
    QCOMPARE(edited.overlays.checkpoints.at(m_session.overlays.checkpoints.indexOf(original)).version, 2);
}

bool TestRecordedComposition::loadWithPin(const QString &name, Pin pin, LoadedSession *out)
{
    const QString copy = m_dir.filePath(name);
    if (!QFile::copy(m_databasePath, copy))
        return false;
    QString error;
    {
        SessionStore store;
        if (!store.open(copy, &error))
            return false;
        const std::optional<SessionInfo> info = store.session(m_session.info.id, &error);
        if (!info || !store.addPin(m_session.info.id, pin, PinBudget::forSession(*info), &error)) {
            qWarning("cannot pin: %s", qPrintable(error));
            return false;
        }
    }
    if (!SessionLoader::loadNow(copy, m_session.info.id, out, &error)) {
        qWarning("cannot load: %s", qPrintable(error));
        return false;
    }
    return true;
}

// A pin made while the session ran (before request k was sent): the requests from k on carried it.
// The recorded views show its band from k, the Context dock lists it, and the what-if under the
// session's policy applies it from k too, so it reproduces the recording until the pin's own
// tokens take a request across a threshold the recording (decided without it) stayed below.
void TestRecordedComposition::aPinMadeWhileRecordingIsInTheRecordedViewsAndTheWhatIf()
{
    const int k = int(m_session.requests.size()) / 2;
    QVERIFY(m_session.requests.at(k).startedAt.isValid());
    Pin pin;
    pin.kind = Pin::Kind::Note;
    pin.text = u"Keep the fixtures' timestamps in UTC."_s;
    pin.createdAt = m_session.requests.at(k).startedAt.addMSecs(-1);
    LoadedSession pinned;
    QVERIFY(loadWithPin(u"pinned-while.db"_s, pin, &pinned));
    QCOMPARE(pinned.overlays.pins.size(), 1);
    const qint64 pinTokens = PinnedSection::tokens(pinned.overlays.pins);
    QVERIFY(pinTokens > 0);
    for (int i = 0; i < pinned.requestCount(); ++i) {
        const QByteArray at = "request " + QByteArray::number(i);
        QVERIFY2(pinned.compositions.at(i).tokens(ViewComposition::Part::Pinned) == (i < k ? 0 : pinTokens), at.constData());
    }
    // The Context dock's list has the pinned section from k on, with the tokens of the bar.
    ContextViewModel list;
    list.setSnapshot(pinned.contextSnapshot(k));
    int pinnedRows = 0;
    for (int r = 0; r < list.rowCount(); ++r)
        pinnedRows += list.index(r, 0).data(ContextViewModel::KindRole).toInt() == int(ViewItem::Kind::Pinned) ? 1 : 0;
    QCOMPARE(pinnedRows, 1);
    list.setSnapshot(pinned.contextSnapshot(k - 1));
    for (int r = 0; r < list.rowCount(); ++r)
        QVERIFY(list.index(r, 0).data(ContextViewModel::KindRole).toInt() != int(ViewItem::Kind::Pinned));

    // The what-if under the session's policy: the recording, request by request.
    const SimulationResult whatIf = Simulator::simulate(pinned.replay.simulatorInput(pinned.policy, SummaryModel::extractive()));
    const SimulationTotals recorded = pinned.recordedTotals();
    // The recording decided without the pin (it was added to a copy of it afterwards): the what-if
    // follows it request by request until the pin's own tokens move a request across a threshold.
    int differs = -1;
    for (int i = 0; i < pinned.requestCount() && differs < 0; ++i) {
        if (!(whatIf.rows.at(i).composition == pinned.compositions.at(i)) || whatIf.rows.at(i).tier != pinned.requests.at(i).tier)
            differs = i;
    }
    if (differs < 0) {
        QCOMPARE(whatIf.totals.tokensSent, recorded.tokensSent);
        QCOMPARE(whatIf.totals.tiers, recorded.tiers);
        QCOMPARE(whatIf.totals.peakRatio, recorded.peakRatio);
    } else {
        QVERIFY2(differs >= k, QByteArray::number(differs).constData());
        const ViewComposition &c = pinned.compositions.at(differs);
        const TokenEstimate calibration(0, 0, pinned.policy, 0, pinned.replay.tokenScale);
        const qint64 rule = c.viewTokens() - c.tokens(ViewComposition::Part::Calibration);
        const qint64 pinCost = calibration.scaled(rule) - calibration.scaled(rule - pinTokens);
        const Tier recordedTier = pinned.policy.tierFor(TokenEstimate::ratioFor(c.used() - pinCost, c.window()));
        qInfo("the pin moves request %d from %s to %s (%lld of %lld tokens)", differs, qPrintable(tierName(recordedTier)),
              qPrintable(tierName(whatIf.rows.at(differs).tier)), pinCost, c.used());
        QCOMPARE(recordedTier, pinned.requests.at(differs).tier);
        QCOMPARE(pinned.policy.tierFor(c.ratio()), whatIf.rows.at(differs).tier);
    }
    QCOMPARE(WhatIfSession(pinned.simulatorInput()).pinsAfterRecording(pinned.policy, whatIf.totals).pins, 0);
}

// A pin made after the recording (here: now, on an import): no recorded view had it, so the
// recorded compositions and totals do not move; the what-if shows it in every request, and says
// how much that adds over the same run without it, which is the recording.
void TestRecordedComposition::aPinMadeAfterTheRecordingIsSaidAndMeasured()
{
    Pin pin;
    pin.kind = Pin::Kind::Note;
    pin.text = u"Never edit the generated parser by hand. "_s.repeated(40);
    LoadedSession pinned;
    QVERIFY(loadWithPin(u"pinned-after.db"_s, pin, &pinned));
    QCOMPARE(pinned.compositions, m_session.compositions);
    const SimulationTotals recorded = pinned.recordedTotals();
    QCOMPARE(recorded.tokensSent, m_session.recordedTotals().tokensSent);

    const WhatIfSession session(pinned.simulatorInput());
    const SimulationResult whatIf = session.simulate(pinned.policy);
    const WhatIfSession::PinsAfterRecording effect = session.pinsAfterRecording(pinned.policy, whatIf.totals);
    QCOMPARE(effect.pins, 1);
    QCOMPARE(effect.pinnedTokens, PinnedSection::tokens(pinned.overlays.pins));
    QCOMPARE(effect.without.tokensSent, recorded.tokensSent);
    QCOMPARE(effect.without.tiers, recorded.tiers);
    QCOMPARE(effect.with.tokensSent, whatIf.totals.tokensSent);
    QVERIFY(effect.tokensSentAdded() != 0);
    for (const SimulationRow &row : whatIf.rows)
        QCOMPARE(row.composition.tokens(ViewComposition::Part::Pinned), effect.pinnedTokens);

    // The Thresholds dock says so, with the numbers.
    ThresholdsPanel panel;
    panel.setPinsAfterRecording(effect);
    const QLocale locale;
    const QString note = panel.pinsNote();
    qInfo().noquote() << "demo, one pin after the recording:" << note;
    QVERIFY2(note.contains(locale.toString(std::abs(effect.tokensSentAdded()))), qPrintable(note));
    QCOMPARE(note.contains(u"fewer tokens are sent"_s), effect.tokensSentAdded() < 0);
    QVERIFY2(note.contains(locale.toString(effect.without.tokensSent)), qPrintable(note));
    QVERIFY2(note.contains(locale.toString(effect.pinnedTokens)), qPrintable(note));
    panel.setPinsAfterRecording({});
    QVERIFY(panel.pinsNote().isEmpty());
}

QString TestRecordedComposition::importInto(const QString &db, const QString &transcript)
{
    SessionStore store;
    QString error;
    if (!store.open(db, &error)) {
        qWarning("cannot open %s: %s", qPrintable(db), qPrintable(error));
        return {};
    }
    SessionImporter::Options options;
    options.workspace = m_dir.path();
    const SessionImporter::Result r = SessionImporter::importFile(store, QStringLiteral(WATERLINE_TEST_DATA "/replay/") + transcript, options);
    if (!r.ok)
        qWarning("cannot import %s: %s", qPrintable(transcript), qPrintable(r.error));
    return r.ok ? r.sessionId : QString();
}

// A Claude Code import with a compaction of Claude Code's own: the gauge's and Sent line's total,
// the Context dock (its bar and its view) and `waterline-cli show` (RecordedRequests) agree, after
// the compaction they hold the summary and what followed, and the conversation marks it with the
// summary readable.
void TestRecordedComposition::anImportAsItsSourceSentIt()
{
    const QString db = m_dir.filePath(u"import.db"_s);
    const QString sessionId = importInto(db, u"claude-code/session-624a4a58.jsonl"_s);
    QVERIFY(!sessionId.isEmpty());
    LoadedSession loaded;
    QString error;
    QVERIFY2(SessionLoader::loadNow(db, sessionId, &loaded, &error), qPrintable(error));
    SessionStore store;
    QVERIFY(store.open(db, &error));
    const std::optional<RecordedRequests::StoredRequests> shown = RecordedRequests::ofStored(store, sessionId, &error);
    QVERIFY2(shown, qPrintable(error));
    QCOMPARE(loaded.compositions.size(), shown->rows.size());
    QCOMPARE(loaded.policy, shown->policy);
    const QList<TimelineRow> timeline = loaded.timelineRows();
    int compacted = 0;
    for (qsizetype i = 0; i < shown->rows.size(); ++i) {
        const RecordedRequestRow &row = shown->rows[i];
        QCOMPARE(loaded.compositions[i], row.composition);
        // The Sent line (the stored estimate and what it carried besides) is the dock's total.
        QVERIFY2(std::abs(timeline[i].sentTokens - row.gaugeTokens) <= 2,
                 qPrintable(u"request %1: %2 vs %3"_s.arg(i).arg(timeline[i].sentTokens).arg(row.gaugeTokens)));
        if (!row.sourceCompacted)
            continue;
        ++compacted;
        // The Context dock's view of the request is the source's: built from its overlays, it holds
        // the summary as the checkpoint.
        const ContextSnapshot snapshot = loaded.contextSnapshot(int(i));
        const ContextView view = ContextView::build(snapshot.systemPrompt, snapshot.history, snapshot.overlays, snapshot.historyEnd);
        QCOMPARE(loaded.compositionOf(view, int(i)), row.composition);
        QVERIFY(view.hasCheckpoint());
    }
    QVERIFY(compacted > 10);
    // The gauge: the last request, far below the window now (89 % red with the whole history).
    const double last = double(shown->rows.constLast().gaugeTokens) / double(loaded.policy.contextWindow);
    QVERIFY2(last < 0.5, qPrintable(QString::number(last)));
    // The conversation's marker of Claude Code's compaction, with its summary.
    int sourceMarkers = 0;
    for (const auto &[at, marker] : loaded.compactionMarkers()) {
        if (marker.sourceAgent.isEmpty())
            continue;
        ++sourceMarkers;
        QVERIFY(marker.summary.startsWith(u"This session is being continued"_s));
        QCOMPARE(marker.tokensBefore, qint64(155979));
        QVERIFY(at > 0 && at < loaded.history.size());
    }
    QCOMPARE(sourceMarkers, 1);
}

// A Codex rollout records its window (model_context_window): the Context dock measures against it
// and says so, as `waterline-cli show` does (RecordedRequests::windowOf); a session put under a
// policy of its own says that instead.
void TestRecordedComposition::theContextDockSaysWhereTheWindowComesFrom()
{
    const QString db = m_dir.filePath(u"codex-window.db"_s);
    const QString sessionId = importInto(db, u"codex/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl"_s);
    QVERIFY(!sessionId.isEmpty());
    LoadedSession loaded;
    QString error;
    QVERIFY2(SessionLoader::loadNow(db, sessionId, &loaded, &error), qPrintable(error));
    QVERIFY(!loaded.requests.isEmpty());
    const ContextSnapshot snapshot = loaded.contextSnapshot(0);
    QCOMPARE(snapshot.windowSource, u"transcript: model_context_window"_s);
    ContextPanel panel;
    panel.showSnapshot(snapshot);
    const QString text = panel.summaryText();
    QVERIFY2(text.contains(QLocale().toString(258400)), qPrintable(text));
    QVERIFY2(text.contains(u"transcript records (model_context_window)"_s), qPrintable(text));

    // Under a policy of the session's own, with another window, the dock says whose it is.
    loaded.policy.contextWindow = 64000;
    const ContextSnapshot own = loaded.contextSnapshot(0);
    QCOMPARE(own.windowSource, u"session policy"_s);
    panel.showSnapshot(own);
    QVERIFY2(panel.summaryText().contains(u"session's policy"_s), qPrintable(panel.summaryText()));
}

QTEST_MAIN(TestRecordedComposition)
#include "tst_recordedcomposition.moc"
