// Issue 31, section 3: one composition of a request, everywhere. For every request of the corpus
// sessions in tests/data (the demo's Claude Code session replayed and imported as it is, the two
// Codex rollouts, an SWE-agent trajectory replayed and an OpenHands run), the window's displays
// of a request all read its one composition (RecordedRun::compositions): the Context dock's
// headline, bar and list, the timeline's sent line and composition, the gauge in the status bar,
// and the recorded totals of the Thresholds dock.
#include "MainWindow.h"
#include "context/ContextModels.h"
#include "context/ContextPanel.h"
#include "common/CompositionBar.h"
#include "replay/SessionImporter.h"
#include "store/SessionStore.h"
#include "timeline/TimelineModel.h"
#include "workbench/ContextGauge.h"
#include "workbench/DemoSession.h"
#include "workbench/LoadedSession.h"

#include <QLocale>
#include <QSignalSpy>
#include <QTableView>
#include "TestSupport.h"

#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {
using Part = ViewComposition::Part;

// A transcript under tests/data/replay.
QString dataFile(const QString &relative)
{
    return test::dataPath(u"replay/"_s + relative);
}

// The tokens the Context dock's list shows for its rows of `kind`, summed.
qint64 listTokens(const QAbstractItemModel *model, ViewItem::Kind kind)
{
    qint64 sum = 0;
    for (int r = 0; r < model->rowCount(); ++r) {
        if (model->index(r, 0).data(ContextViewModel::KindRole).toInt() != int(kind))
            continue;
        bool ok = false;
        sum += QLocale().toLongLong(model->index(r, ContextViewModel::TokensColumn).data().toString(), &ok);
        if (!ok)
            return -1;
    }
    return sum;
}

int listRows(const QAbstractItemModel *model, std::initializer_list<ViewItem::Kind> kinds)
{
    int n = 0;
    for (int r = 0; r < model->rowCount(); ++r) {
        const int kind = model->index(r, 0).data(ContextViewModel::KindRole).toInt();
        for (ViewItem::Kind k : kinds)
            n += kind == int(k) ? 1 : 0;
    }
    return n;
}
} // namespace

class TestCompositionAgreement : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void everyDisplayReadsTheOneComposition_data();
    void everyDisplayReadsTheOneComposition();

private:
    QTemporaryDir m_dir;
    QString m_databasePath;
    QString m_demoPath;
    QString m_demoId;
    QHash<QString, QString> m_imported; // row name -> session id in m_databasePath
};

void TestCompositionAgreement::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const DemoSession::Result demo = DemoSession::ensure(m_dir.filePath(u"demo"_s));
    QVERIFY2(demo.ok, qPrintable(demo.error));
    m_demoPath = demo.databasePath;
    m_demoId = demo.sessionId;

    m_databasePath = m_dir.filePath(u"corpus.db"_s);
    SessionStore store;
    QString error;
    QVERIFY2(store.open(m_databasePath, &error), qPrintable(error));
    struct Source
    {
        QString name;
        QString file;
        bool replay;
    };
    const QList<Source> sources{
        {u"claude-code spotter"_s, u"claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl"_s, false},
        {u"codex 019e1625"_s, u"codex/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl"_s, false},
        {u"codex 019e1695"_s, u"codex/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl"_s, false},
        {u"swe-agent marshmallow, replayed"_s, u"swe-agent/marshmallow-code__marshmallow-1867.traj"_s, true},
        {u"openhands output"_s, u"openhands/output.jsonl"_s, false},
    };
    for (const Source &source : sources) {
        SessionImporter::Options options;
        options.workspace = m_dir.filePath(u"offloads"_s);
        options.replay = source.replay;
        if (source.replay) {
            options.replayPolicy.contextWindow = 16'000; // small enough for every tier to fire
            options.replayPolicy.reservedOutput = 1'000;
        }
        const SessionImporter::Result result = SessionImporter::importFile(store, dataFile(source.file), options);
        QVERIFY2(result.ok, qPrintable(source.name + u": "_s + result.error));
        m_imported.insert(source.name, result.sessionId);
    }
}

void TestCompositionAgreement::everyDisplayReadsTheOneComposition_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("demo (spotter, Claude Code, replayed)") << u"demo"_s;
    for (const QString &name : {u"claude-code spotter"_s, u"codex 019e1625"_s, u"codex 019e1695"_s, u"swe-agent marshmallow, replayed"_s,
                                u"openhands output"_s})
        QTest::newRow(qPrintable(name)) << name;
}

void TestCompositionAgreement::everyDisplayReadsTheOneComposition()
{
    QFETCH(QString, name);
    const bool demo = name == u"demo";
    const QString path = demo ? m_demoPath : m_databasePath;
    const QString id = demo ? m_demoId : m_imported.value(name);
    SessionStore store;
    QVERIFY(store.open(path));
    MainWindow window;
    window.setStore(&store, path);
    QSignalSpy shown(&window, &MainWindow::sessionShown);
    window.openSession(id);
    QVERIFY(shown.wait(120000));
    const LoadedSession &session = window.session();
    QVERIFY(session.requestCount() > 0);
    QCOMPARE(session.compositions.size(), session.requests.size());

    auto *timeline = window.findChild<TimelineModel *>();
    QVERIFY(timeline);
    QCOMPARE(timeline->recorded().size(), session.requests.size());
    ContextPanel *panel = window.contextPanel();
    const QAbstractItemModel *list = panel->findChild<QTableView *>(u"ContextViewTable"_s)->model();
    const QAbstractItemModel *historyList = panel->findChild<QTableView *>(u"ContextHistoryTable"_s)->model();
    const QLocale locale;
    bool sawOverhead = false, sawCheckpoint = false, sawOffload = false;
    for (int i = 0; i < session.requestCount(); ++i) {
        const ViewComposition &c = session.compositions.at(i);
        const QByteArray at = name.toUtf8() + " request " + QByteArray::number(i);
        // The timeline: its sent line and its composition.
        const TimelineRow &row = timeline->recorded().at(i);
        QVERIFY2(row.composition == c, at.constData());
        QVERIFY2(row.sentTokens == c.used(), at.constData());
        if (c.window() > 0)
            QVERIFY2(qFuzzyCompare(row.sentRatio, c.ratio()) || (row.sentRatio == 0 && c.ratio() == 0), at.constData());
        // The Context dock: its headline, its bar and its list.
        window.selectRequest(session.requests.at(i).index);
        QVERIFY2(panel->compositionBar()->composition() == c, at.constData());
        const QString headline = panel->summaryText();
        for (qint64 n : {c.sent(), c.used(), c.viewMessages(), c.historyMessages()})
            QVERIFY2(headline.contains(locale.toString(n)), qPrintable(headline + u" lacks "_s + locale.toString(n)));
        QVERIFY2(listTokens(list, ViewItem::Kind::System) == c.tokens(Part::SystemPrompt), at.constData());
        QVERIFY2(listTokens(list, ViewItem::Kind::Pinned) == c.tokens(Part::Pinned), at.constData());
        QVERIFY2(listTokens(list, ViewItem::Kind::Checkpoint) == c.tokens(Part::Checkpoint), at.constData());
        QVERIFY2(listRows(list, {ViewItem::Kind::Original, ViewItem::Kind::Placeholder}) == c.viewMessages(), at.constData());
        QVERIFY2(historyList->rowCount() == c.historyMessages(), at.constData());
        // The overhead is a part of its own, and the headline names it.
        if (const qint64 overhead = c.tokens(Part::Overhead); overhead > 0) {
            sawOverhead = true;
            QVERIFY2(headline.contains(locale.toString(overhead)), qPrintable(headline));
        }
        sawCheckpoint = sawCheckpoint || c.tokens(Part::Checkpoint) > 0;
        sawOffload = sawOffload || c.tokens(Part::Offloaded) > 0;
    }
    // The gauge in the status bar: the last recorded request, as its composition says.
    const ViewComposition &last = session.compositions.constLast();
    auto *gauge = window.findChild<ContextGauge *>(u"ContextGauge"_s);
    QVERIFY(gauge);
    QCOMPARE(gauge->source(), ContextGauge::Source::LastRecorded);
    QCOMPARE(gauge->composition(), last);
    QCOMPARE(gauge->ratio(), last.ratio());
    QCOMPARE(gauge->window(), last.window());
    QVERIFY2(gauge->toolTip().contains(locale.toString(last.used())), qPrintable(gauge->toolTip()));
    // The Thresholds dock's recorded totals: the compositions summed.
    qint64 sent = 0;
    for (const ViewComposition &c : session.compositions)
        sent += c.sent();
    QCOMPARE(session.recordedTotals().tokensSent, sent);
    if (demo) {
        QVERIFY(sawCheckpoint);
        QVERIFY(sawOffload);
    }
    if (name.startsWith(u"claude-code"))
        QVERIFY(sawOverhead); // Claude Code stores neither its system prompt nor its tools
}

QTEST_MAIN(TestCompositionAgreement)
#include "tst_compositionagreement.moc"
