// The window drives a live agent against the fake LLM server: a full turn typed into the prompt
// (streamed text, an approval, a tool card), a stop with Esc, compaction progress with Skip, an error
// row with Retry, the first-run panel and the Settings action.
#include "FakeLlmServer.h"
#include "MainWindow.h"

#include "agent/AgentRun.h"
#include "compaction/CompactionRecord.h"
#include "compaction/Preflight.h"
#include "conversation/ConversationModel.h"
#include "conversation/ConversationView.h"
#include "conversation/PromptInput.h"
#include "offloads/OffloadListModel.h"
#include "offloads/OffloadsPanel.h"
#include "sessions/SessionsPanel.h"
#include "settings/AgentPage.h"
#include "settings/AppSettings.h"
#include "settings/FirstRunPanel.h"
#include "settings/SettingsDialog.h"
#include "store/SessionStore.h"
#include "tools/ApprovalGate.h"
#include "workbench/AgentController.h"
#include "review/SummaryReviewDialog.h"
#include "workbench/SessionLifecycle.h"
#include "workbench/AgentStatusBar.h"
#include "workbench/ContextGauge.h"
#include "workbench/LoadedSession.h"
#include "thresholds/ThresholdsPanel.h"
#include "whatif/ReplayInput.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QPixmap>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <memory>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {

int findRow(const QAbstractItemModel &model, ConversationRowKind kind, const std::function<bool(const QModelIndex &)> &pred = {})
{
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex index = model.index(row, 0);
        if (index.data(ConversationModel::KindRole).toInt() == int(kind) && (!pred || pred(index)))
            return row;
    }
    return -1;
}

// Chat requests only (the window also probes GET /models).
int summarizerRequests(const FakeLlmServer &server)
{
    int n = 0;
    for (const RecordedRequest &r : server.requests())
        n += r.protocol() == u"openai-chat" && r.isSummarizerCall() ? 1 : 0;
    return n;
}

// Both servers answer summary requests with a usable summary.
FakeReply summaryReply()
{
    FakeReply reply = FakeReply::withText(u"## Anchors\n### User Intent\nAnswer the questions\n### Execution Progress\n- N/A\n"
                                          "### Key Decisions\n- N/A\n### Tried Solutions\n- N/A\n### Next Steps\n- N/A\n"
                                          "## Summary\nSUMMARY-TEXT four questions answered."_s);
    reply.when = [](const RecordedRequest &r) { return r.isSummarizerCall(); };
    reply.persistent = true;
    return reply;
}

int chatRequests(const FakeLlmServer &server)
{
    int n = 0;
    for (const RecordedRequest &r : server.requests())
        n += r.protocol() == u"openai-chat" ? 1 : 0;
    return n;
}

FakeToolCall bashCall(const QString &id, const QString &command)
{
    return FakeToolCall{id, u"bash"_s, QString::fromUtf8(QJsonDocument(QJsonObject{{u"command"_s, command}}).toJson(QJsonDocument::Compact))};
}

// A window on a real store with one agent session in a temporary workspace, talking to the fake server.
struct Harness
{
    QTemporaryDir dir;
    FakeLlmServer server;
    FakeLlmServer other;   // a second provider (summariser, or a session's own profile)
    SessionStore store;
    std::unique_ptr<AppSettings> settings;
    std::unique_ptr<MainWindow> window;
    QString dbPath;
    QString workspace;
    QString sessionId;
    std::unique_ptr<QAbstractItemModelTester> tester;

    // A profile named `name` on the second server.
    ProviderProfile otherProfile(const QString &name, const QString &model) const
    {
        ProviderProfile profile;
        profile.name = name;
        profile.baseUrl = other.openAiBaseUrl();
        profile.model = model;
        profile.contextWindow = 200000;
        return profile;
    }

    // `beforeWindow` may change the settings the window starts with.
    bool setUp(const std::function<bool(Harness &)> &beforeWindow = {})
    {
        if (!dir.isValid() || !server.start() || !other.start())
            return false;
        workspace = dir.filePath(u"ws"_s);
        QDir().mkpath(workspace);
        dbPath = dir.filePath(u"sessions.db"_s);
        QString error;
        if (!store.open(dbPath, &error))
            return false;
        settings = std::make_unique<AppSettings>(dir.filePath(u"settings.ini"_s));
        ProviderProfile profile;
        profile.name = u"fake"_s;
        profile.baseUrl = server.openAiBaseUrl();
        profile.model = u"fake-model"_s;
        profile.contextWindow = 200000;
        if (!settings->setProfiles({profile}, &error))
            return false;
        settings->setDefaultProfileName(profile.name);
        if (beforeWindow && !beforeWindow(*this))
            return false;
        window = std::make_unique<MainWindow>(settings.get());
        tester = std::make_unique<QAbstractItemModelTester>(window->conversationModel(),
                                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        window->setStore(&store, dbPath);
        window->resize(1400, 900);
        window->show();
        if (!QTest::qWaitForWindowExposed(window.get()))
            return false;
        // Created off the GUI thread, then opened.
        QSignalSpy created(window->sessions(), &SessionLifecycle::sessionCreated);
        QSignalSpy opened(window->agent(), &AgentController::sessionOpened);
        window->sessionsPanel()->createSession(u"live"_s, workspace);
        if (!created.wait(10000))
            return false;
        sessionId = created.at(0).at(0).toString();
        return (!opened.isEmpty() || opened.wait(10000)) && window->agent()->isOpen();
    }

    ConversationModel &model() const { return *window->conversationModel(); }
    AgentRun *run() const { return window->agent()->run(); }

    void type(const QString &text)
    {
        QPlainTextEdit *editor = window->promptInput()->editor();
        editor->setFocus();
        QTest::keyClicks(editor, text);
        QTest::keyClick(editor, Qt::Key_Return, Qt::ControlModifier);
    }

    // Clicks a painted button of `row` the way a user does.
    bool click(int row, ConversationAction action)
    {
        ConversationView *view = window->conversationView();
        const QModelIndex index = model().index(row, 0);
        view->scrollTo(index);
        view->ensureVisibleLayouts();
        const QRect rect = view->actionRect(index, action);
        if (rect.isNull())
            return false;
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
        return true;
    }

    bool settle(int ms = 15000)
    {
        return QTest::qWaitFor([this] { return run() && !run()->isBusy(); }, ms);
    }
};

} // namespace

class TestLiveAgent : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void fullTurnThenStop();
    void compactionProgressSkip();
    void summaryReviewDialog();
    void errorRowRetry();
    void brokenStreamIsRetriedAndShownOnce();
    void firstRunOpensDemo();
    void settingsReachTheAgent();
    void unsandboxedCommandsAreShown();
    void summariesUseTheSummaryProfile_data();
    void summariesUseTheSummaryProfile();
    void sessionRunsOnItsOwnProfile_data();
    void sessionRunsOnItsOwnProfile();
    void stateSurvivesReopen();
    void offloadedBadgeOpensThatResult();
    void compactionElapsedAdvances();
    void gaugeIsTheNextPreflightRatio_data();
    void gaugeIsTheNextPreflightRatio();
    void sessionWithoutPolicy_oneWindowEverywhere();
};

void TestLiveAgent::initTestCase()
{
    QCoreApplication::setOrganizationName(u"WaterlineTest"_s);
    QCoreApplication::setApplicationName(u"tst_liveagent"_s);
}

void TestLiveAgent::fullTurnThenStop()
{
    Harness h;
    QVERIFY(h.setUp());
    QVERIFY(!h.window->showsFirstRun());
    QVERIFY(!h.window->promptInput()->isBlocked());
    QCOMPARE(h.window->findChild<AgentStatusBar *>()->modelText(), u"fake-model"_s);
    // A new session compacts against the default model's window.
    QCOMPARE(h.run()->policy().contextWindow, 200000);
    QTRY_COMPARE(h.window->agent()->connection(), AgentController::Connection::Reachable);

    // Turn 1: text streamed slowly, then a bash call that needs approval, then the answer.
    FakeReply first = FakeReply::withToolCalls({bashCall(u"call_1"_s, u"echo hello-from-bash"_s)},
                                               u"Let me look at the workspace first."_s);
    first.chunkChars = 3;
    first.delayMs = 40;
    h.server.enqueue(first);
    h.server.enqueue(FakeReply::withText(u"The command printed hello-from-bash."_s));

    h.type(u"run echo for me"_s);
    QVERIFY(h.window->promptInput()->editor()->toPlainText().isEmpty());
    // The user's row comes at once; streamed text appears while the stream is still going.
    QTRY_VERIFY(findRow(h.model(), ConversationRowKind::User) >= 0);
    QTRY_VERIFY_WITH_TIMEOUT(findRow(h.model(), ConversationRowKind::Assistant, [](const QModelIndex &i) {
                                 return i.data(ConversationModel::StreamingRole).toBool()
                                     && !i.data(ConversationModel::TextRole).toString().isEmpty();
                             }) >= 0, 10000);
    QCOMPARE(h.run()->state(), AgentRun::State::Streaming);
    QCOMPARE(h.window->agent()->connection(), AgentController::Connection::Streaming);
    QVERIFY(h.window->promptInput()->isRunning());

    // The approval row shows the exact command; Allow once runs it.
    int approvalRow = -1;
    QTRY_VERIFY_WITH_TIMEOUT((approvalRow = findRow(h.model(), ConversationRowKind::Approval)) >= 0, 10000);
    const QModelIndex approval = h.model().index(approvalRow, 0);
    QCOMPARE(approval.data(ConversationModel::TextRole).toString(), u"echo hello-from-bash"_s);
    QCOMPARE(approval.data(ConversationModel::ApprovalStateRole).toInt(), int(ApprovalState::Pending));
    QCOMPARE(h.run()->state(), AgentRun::State::AwaitingApproval);
    QVERIFY(h.click(approvalRow, ConversationAction::AllowOnce));
    QCOMPARE(h.model().index(approvalRow, 0).data(ConversationModel::ApprovalStateRole).toInt(), int(ApprovalState::AllowedOnce));

    QVERIFY(h.settle());
    QCOMPARE(h.run()->state(), AgentRun::State::Finished);
    const QModelIndex card = h.model().indexForCallId(u"call_1"_s);
    QVERIFY(card.isValid());
    QCOMPARE(card.data(ConversationModel::ToolNameRole).toString(), u"bash"_s);
    QCOMPARE(card.data(ConversationModel::ToolStatusRole).toInt(), int(ToolCallStatus::Ok));
    QVERIFY(card.data(ConversationModel::TextRole).toString().contains(u"hello-from-bash"_s));
    QVERIFY(card.data(ConversationModel::ToolDurationRole).toLongLong() >= 0);
    QVERIFY(card.data(ConversationModel::ToolArgumentsRole).toString().contains(u"echo hello-from-bash"_s));
    const int answer = findRow(h.model(), ConversationRowKind::Assistant, [](const QModelIndex &i) {
        return i.data(ConversationModel::TextRole).toString() == u"The command printed hello-from-bash.";
    });
    QVERIFY(answer > card.row());
    QVERIFY(!h.window->promptInput()->isRunning());
    // The status bar: the provider's input tokens of the last request, a gauge above zero.
    QTRY_VERIFY(h.window->findChild<AgentStatusBar *>()->tokensText().contains(u"100"_s));
    QVERIFY(h.window->findChild<AgentStatusBar *>()->gauge()->ratio() > 0);
    // The docks were refreshed from the store: the timeline knows both requests.
    QTRY_COMPARE_WITH_TIMEOUT(h.window->session().requestCount(), 2, 5000);

    // Turn 2: stopped with Esc mid-stream.
    FakeReply hanging = FakeReply::withText(u"This answer never finishes because the server hangs here"_s);
    hanging.chunkChars = 4;
    hanging.fault = FakeReply::Fault::Hang;
    hanging.faultAfterEvents = 3;
    h.server.enqueue(hanging);
    h.type(u"second question"_s);
    QTRY_VERIFY_WITH_TIMEOUT(h.run()->state() == AgentRun::State::Streaming && h.model().isStreaming(), 10000);
    QTest::keyClick(h.window->promptInput()->editor(), Qt::Key_Escape);
    QTRY_COMPARE(h.run()->state(), AgentRun::State::Stopped); // once the stopped request is stored
    QVERIFY(!h.model().isStreaming());
    const int stoppedRow = findRow(h.model(), ConversationRowKind::Error);
    QVERIFY(stoppedRow > answer);
    QVERIFY(h.model().index(stoppedRow, 0).data(ConversationModel::TextRole).toString().contains(u"Stopped"_s));
    QVERIFY(h.model().index(stoppedRow, 0).data(ConversationModel::RetryableRole).toBool());

    // Nothing lost: both prompts, the call, its result and the answer are stored; the stop is on record.
    QString error;
    const QList<Message> history = h.store.history(h.sessionId, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(history.size(), 5);
    QCOMPARE(history.last().role, Role::User);
    QCOMPARE(history.last().content, u"second question"_s);
    const QList<RequestRecord> requests = h.store.requests(h.sessionId, &error);
    QCOMPARE(requests.size(), 3);
    QVERIFY(requests.last().error.contains(u"stopped"_s));
}

void TestLiveAgent::compactionProgressSkip()
{
    Harness h;
    QVERIFY(h.setUp());
    // The summariser hangs: the progress row stays until Skip moves to the next fallback.
    FakeReply hang = FakeReply::withFault(FakeReply::Fault::Hang);
    hang.when = [](const RecordedRequest &r) { return r.isSummarizerCall(); };
    hang.persistent = true;
    h.server.addRule(hang);
    for (int i = 0; i < 4; ++i) {
        h.server.enqueue(FakeReply::withText(u"answer %1 "_s.arg(i) + QString(400, u'a')));
        QVERIFY(h.window->agent()->send(u"question %1 "_s.arg(i) + QString(400, u'q')));
        QVERIFY(h.settle());
    }
    QSignalSpy recorded(h.run(), &AgentRun::compactionRecorded);
    h.type(u"/compact force"_s);
    QTRY_COMPARE(h.run()->state(), AgentRun::State::Compacting); // once the pins are read, off this thread
    QVERIFY(h.model().hasProgress());
    const QModelIndex progress = h.model().progressIndex();
    const QString label = progress.data(Qt::DisplayRole).toString();
    QVERIFY2(label.startsWith(u"Compacting context (Full tier, summarising"_s), qPrintable(label));
    QVERIFY(progress.data(ConversationModel::SkippableRole).toBool());
    QVERIFY(progress.data(ConversationModel::StartedAtRole).toDateTime().isValid());
    QTRY_VERIFY_WITH_TIMEOUT(chatRequests(h.server) == 5, 5000); // the summary was asked for

    QVERIFY(h.click(progress.row(), ConversationAction::Skip));
    QVERIFY(h.settle());
    QCOMPARE(recorded.size(), 1);
    const CompactionRecord record = recorded.first().first().value<CompactionRecord>();
    QCOMPARE(record.tier, Tier::Full);
    QVERIFY(record.summarizerStep != SummarizerStep::MainModel);
    QVERIFY(record.error.contains(u"skipped"_s));
    QVERIFY(!h.model().hasProgress());
    const int marker = findRow(h.model(), ConversationRowKind::Compaction);
    QVERIFY(marker >= 0);
    QCOMPARE(h.model().index(marker, 0).data(ConversationModel::RecordIdRole).toString(), record.id);
    // The compactions dock hears of it.
    QTRY_COMPARE_WITH_TIMEOUT(int(h.window->session().records.size()), 1, 5000);
}

// Review of summaries in the window (issue #22 item 7): the draft opens in the review dialog, the
// agent waits, and the edit the user accepts is the checkpoint, kept beside the draft.
void TestLiveAgent::summaryReviewDialog()
{
    Harness h;
    QVERIFY(h.setUp());
    FakeReply summary = FakeReply::withText(u"## Anchors\n### User Intent\nAnswer the questions\n### Execution Progress\n- N/A\n"
                                            "### Key Decisions\n- N/A\n### Tried Solutions\n- N/A\n### Next Steps\n- N/A\n"
                                            "## Summary\nDRAFT four questions answered."_s);
    summary.when = [](const RecordedRequest &r) { return r.isSummarizerCall(); };
    summary.persistent = true;
    h.server.addRule(summary);
    for (int i = 0; i < 4; ++i) {
        h.server.enqueue(FakeReply::withText(u"answer %1 "_s.arg(i) + QString(400, u'a')));
        QVERIFY(h.window->agent()->send(u"question %1 "_s.arg(i) + QString(400, u'q')));
        QVERIFY(h.settle());
    }
    CompactionPolicy policy = h.run()->policy();
    policy.reviewSummaries = true;
    QVERIFY(h.run()->setPolicy(policy));
    h.type(u"/compact force"_s);
    QTRY_VERIFY_WITH_TIMEOUT(h.window->agent()->reviewDialog() != nullptr, 5000);
    SummaryReviewDialog *dialog = h.window->agent()->reviewDialog();
    QVERIFY(dialog->isVisible());
    QVERIFY(h.run()->isAwaitingReview());
    QCOMPARE(dialog->summaryEdit()->toPlainText(), u"DRAFT four questions answered."_s);
    dialog->summaryEdit()->setPlainText(u"EDITED in the window."_s);
    dialog->acceptButton()->click();
    QVERIFY(h.settle());
    QVERIFY(!h.run()->isAwaitingReview());
    const ContextOverlays overlays = h.store.overlays(h.sessionId);
    QCOMPARE(overlays.checkpoints.size(), 1);
    QCOMPARE(overlays.checkpoints.constFirst().summary, u"EDITED in the window."_s);
    QCOMPARE(overlays.checkpoints.constFirst().version, 2);
    QCOMPARE(h.store.checkpointVersions(overlays.checkpoints.constFirst().id).constFirst().summary,
             u"DRAFT four questions answered."_s);
    QTRY_VERIFY_WITH_TIMEOUT(h.window->agent()->reviewDialog() == nullptr, 5000); // closed and gone
}

void TestLiveAgent::errorRowRetry()
{
    Harness h;
    QVERIFY(h.setUp());
    QList<int> progressKinds;
    connect(&h.model(), &ConversationModel::progressChanged, this, [&](bool active) {
        if (active)
            progressKinds.append(int(h.model().progressIndex().data(ConversationModel::ProgressRole)
                                         .value<ConversationProgress>().kind));
    });
    // Four 500s: the client retries three times (a waiting row each time), then the turn fails.
    for (int i = 0; i < 4; ++i)
        h.server.enqueue(FakeReply::withStatus(500, R"({"error":{"message":"boom"}})", {{"retry-after-ms", "30"}}));
    h.type(u"hello"_s);
    QVERIFY(h.settle());
    QCOMPARE(h.run()->state(), AgentRun::State::Failed);
    QVERIFY(progressKinds.contains(int(ConversationProgress::Kind::WaitingToRetry)));
    const int errorRow = findRow(h.model(), ConversationRowKind::Error);
    QVERIFY(errorRow >= 0);
    QVERIFY(h.model().index(errorRow, 0).data(ConversationModel::TextRole).toString().contains(u"500"_s));
    QVERIFY(h.model().index(errorRow, 0).data(ConversationModel::RetryableRole).toBool());

    h.server.enqueue(FakeReply::withText(u"Recovered after the outage."_s));
    QVERIFY(h.click(errorRow, ConversationAction::Retry));
    QVERIFY(h.settle());
    QCOMPARE(h.run()->state(), AgentRun::State::Finished);
    QVERIFY(!h.model().index(errorRow, 0).data(ConversationModel::RetryableRole).toBool());
    QVERIFY(findRow(h.model(), ConversationRowKind::Assistant, [](const QModelIndex &i) {
                return i.data(ConversationModel::TextRole).toString() == u"Recovered after the outage.";
            }) > errorRow);
    QCOMPARE(chatRequests(h.server), 5);
}

// A connection cut mid-reply: the retry is shown, the half reply is dropped, the whole one arrives once.
void TestLiveAgent::brokenStreamIsRetriedAndShownOnce()
{
    Harness h;
    QVERIFY(h.setUp());
    QList<int> progressKinds;
    connect(&h.model(), &ConversationModel::progressChanged, this, [&](bool active) {
        if (active)
            progressKinds.append(int(h.model().progressIndex().data(ConversationModel::ProgressRole)
                                         .value<ConversationProgress>().kind));
    });
    const QString answer = u"The whole answer, streamed again from its first word."_s;
    FakeReply broken = FakeReply::withText(answer);
    broken.chunkChars = 5;
    broken.fault = FakeReply::Fault::Disconnect;
    broken.faultAfterEvents = 4;
    h.server.enqueue(broken);
    h.server.enqueue(FakeReply::withText(answer));
    h.type(u"hello"_s);
    QVERIFY(h.settle());
    QCOMPARE(h.run()->state(), AgentRun::State::Finished);
    QVERIFY(progressKinds.contains(int(ConversationProgress::Kind::WaitingToRetry)));
    int assistants = 0;
    for (int row = 0; row < h.model().rowCount(); ++row) {
        const QModelIndex index = h.model().index(row, 0);
        if (index.data(ConversationModel::KindRole).toInt() == int(ConversationRowKind::Assistant)) {
            ++assistants;
            QCOMPARE(index.data(ConversationModel::TextRole).toString(), answer);
        }
    }
    QCOMPARE(assistants, 1);
    QCOMPARE(findRow(h.model(), ConversationRowKind::Error), -1);
    QCOMPARE(chatRequests(h.server), 2);
}

void TestLiveAgent::firstRunOpensDemo()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    AppSettings settings(dir.filePath(u"empty.ini"_s));
    QCOMPARE(settings.profiles(), QList<ProviderProfile>{ProviderProfile::defaultProfile()}); // nothing stored
    MainWindow window(&settings);
    // The agent probes a port nothing listens on, so "unreachable" holds on a machine running Ollama too.
    ProviderProfile dead = ProviderProfile::defaultProfile();
    dead.baseUrl = QUrl(u"http://127.0.0.1:1/v1"_s);
    window.agent()->setProfile(dead);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.showsFirstRun());
    QCOMPARE(window.centralStack()->currentWidget(), window.firstRunPanel());
    QCOMPARE(window.firstRunPanel()->addressEdit()->text(), ProviderProfile::defaultProfile().baseUrl.toString());
    QTRY_COMPARE_WITH_TIMEOUT(window.agent()->connection(), AgentController::Connection::Unreachable, 10000);
    QVERIFY(window.showsFirstRun());

    QSignalSpy shown(&window, &MainWindow::sessionShown);
    QTest::mouseClick(window.firstRunPanel()->demoButton(), Qt::LeftButton);
    QVERIFY(shown.wait(240000));
    QVERIFY(!window.showsFirstRun());
    QVERIFY(window.conversationModel()->rowCount() > 100);
    // The demo's workspace is not on this machine: the prompt says so rather than pretending.
    QTRY_VERIFY(window.promptInput()->isBlocked());
    QVERIFY(!window.promptInput()->blockedReason().isEmpty());
}

void TestLiveAgent::settingsReachTheAgent()
{
    Harness h;
    QVERIFY(h.setUp());
    QAction *action = h.window->findChild<QAction *>(u"SettingsAction"_s);
    QVERIFY(action);
    QVERIFY(action->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::Key_Comma)));
    action->trigger();
    SettingsDialog *dialog = h.window->settingsDialog();
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    QCOMPARE(h.window->agent()->approvalPolicy().mode(ApprovalKind::Execute), ApprovalMode::Ask);

    dialog->showPage(SettingsDialog::Page::Agent);
    QComboBox *execute = dialog->agentPage()->modeCombo(ApprovalKind::Execute);
    execute->setCurrentIndex(execute->findData(int(ApprovalMode::Allow)));
    QTest::mouseClick(dialog->buttonBox()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QTRY_VERIFY(!h.window->settingsDialog());

    QCOMPARE(h.window->agent()->approvalPolicy().mode(ApprovalKind::Execute), ApprovalMode::Allow);
    QCOMPARE(h.run()->approvalGate()->policy().mode(ApprovalKind::Execute), ApprovalMode::Allow);

    // And it is what the next turn does: bash runs without an approval row.
    h.server.enqueue(FakeReply::withToolCalls({bashCall(u"c9"_s, u"echo allowed"_s)}));
    h.server.enqueue(FakeReply::withText(u"ok"_s));
    h.type(u"go"_s);
    QVERIFY(h.settle());
    QCOMPARE(h.run()->state(), AgentRun::State::Finished);
    QCOMPARE(findRow(h.model(), ConversationRowKind::Approval), -1);
    QCOMPARE(h.model().indexForCallId(u"c9"_s).data(ConversationModel::ToolStatusRole).toInt(), int(ToolCallStatus::Ok));
}

void TestLiveAgent::unsandboxedCommandsAreShown()
{
    // bubblewrap unavailable (simulated) and the user opted in: the command runs, and the status
    // bar says from then on that this session's commands are not sandboxed.
    qputenv("WATERLINE_BWRAP", "/nonexistent/waterline-test/bwrap");
    Harness h;
    QVERIFY(h.setUp([](Harness &harness) {
        ApprovalPolicy approval = ApprovalPolicy::allowAll();
        SandboxPolicy sandbox;
        sandbox.allowUnsandboxed = true;
        approval.setSandbox(sandbox);
        harness.settings->setApprovalPolicy(approval);
        return true;
    }));
    QCOMPARE(h.window->findChild<AgentStatusBar *>()->sandboxNote(), QString());
    h.server.enqueue(FakeReply::withToolCalls({bashCall(u"c1"_s, u"echo ran"_s)}));
    h.server.enqueue(FakeReply::withText(u"ok"_s));
    h.type(u"go"_s);
    QVERIFY(h.settle());
    qunsetenv("WATERLINE_BWRAP");
    QCOMPARE(h.run()->state(), AgentRun::State::Finished);
    const QModelIndex card = h.model().indexForCallId(u"c1"_s);
    QCOMPARE(card.data(ConversationModel::ToolStatusRole).toInt(), int(ToolCallStatus::Ok));
    QVERIFY(card.data(ConversationModel::TextRole).toString().contains(u"ran without a sandbox"_s));
    QVERIFY2(h.window->findChild<AgentStatusBar *>()->sandboxNote().contains(u"without a sandbox"_s), qPrintable(h.window->findChild<AgentStatusBar *>()->sandboxNote()));
    QVERIFY(h.window->findChild<AgentStatusBar *>()->sandboxNote().contains(u"not installed"_s));
    QVERIFY(!h.window->statusBar()->findChild<QLabel *>(u"StatusSandbox"_s)->isHidden());

    // Another session starts without the warning until one of its commands runs unsandboxed.
    QSignalSpy created(h.window->sessions(), &SessionLifecycle::sessionCreated);
    QSignalSpy opened(h.window->agent(), &AgentController::sessionOpened);
    h.window->sessionsPanel()->createSession(u"second"_s, h.workspace);
    QVERIFY(created.wait(10000));
    QVERIFY(opened.wait(10000));
    QCOMPARE(h.window->agent()->sessionId(), created.at(0).at(0).toString());
    QCOMPARE(h.window->findChild<AgentStatusBar *>()->sandboxNote(), QString());
}

void TestLiveAgent::summariesUseTheSummaryProfile_data()
{
    QTest::addColumn<QString>("summarizer");   // Settings' "Summaries written by"; empty: the default profile
    QTest::addColumn<int>("mainSummaryCalls");
    QTest::addColumn<int>("otherSummaryCalls");
    QTest::addColumn<int>("step");
    QTest::addColumn<bool>("reachable");        // the summary profile's server answers
    QTest::newRow("summary profile") << u"small"_s << 0 << 1 << int(SummarizerStep::Configured) << true;
    QTest::newRow("the default profile") << QString() << 1 << 0 << int(SummarizerStep::MainModel) << true;
    // The chain goes on to the main model when the summariser's server is down.
    QTest::newRow("summary profile unreachable") << u"small"_s << 1 << 0 << int(SummarizerStep::MainModel) << false;
}

void TestLiveAgent::summariesUseTheSummaryProfile()
{
    QFETCH(QString, summarizer);
    QFETCH(int, mainSummaryCalls);
    QFETCH(int, otherSummaryCalls);
    QFETCH(int, step);
    QFETCH(bool, reachable);
    Harness h;
    QVERIFY(h.setUp([&](Harness &hh) {
        QList<ProviderProfile> profiles = hh.settings->profiles();
        ProviderProfile small = hh.otherProfile(u"small"_s, u"small-model"_s);
        if (!reachable)
            small.baseUrl = QUrl(u"http://127.0.0.1:9/v1"_s); // the discard port: nothing listens
        profiles.append(small);
        QString error;
        if (!hh.settings->setProfiles(profiles, &error))
            return false;
        hh.settings->setSummarizerProfileName(summarizer);
        return true;
    }));
    QCOMPARE(h.window->agent()->summarizerProfile().has_value(), !summarizer.isEmpty());
    h.server.addRule(summaryReply());
    h.other.addRule(summaryReply());
    for (int i = 0; i < 4; ++i) {
        h.server.enqueue(FakeReply::withText(u"answer %1 "_s.arg(i) + QString(400, u'a')));
        QVERIFY(h.window->agent()->send(u"question %1 "_s.arg(i) + QString(400, u'q')));
        QVERIFY(h.settle());
    }
    QSignalSpy recorded(h.run(), &AgentRun::compactionRecorded);
    h.type(u"/compact force"_s);
    QVERIFY(h.settle());
    QCOMPARE(recorded.size(), 1);
    const CompactionRecord record = recorded.first().first().value<CompactionRecord>();
    QVERIFY2(record.error.isEmpty() == reachable, qPrintable(record.error)); // a failed step is recorded
    QCOMPARE(int(record.summarizerStep), step);
    QCOMPARE(summarizerRequests(h.server), mainSummaryCalls);
    QCOMPARE(summarizerRequests(h.other), otherSummaryCalls);
    if (otherSummaryCalls > 0) {
        const QList<RecordedRequest> requests = h.other.requests();
        const auto summary = std::find_if(requests.cbegin(), requests.cend(), [](const RecordedRequest &r) { return r.isSummarizerCall(); });
        QCOMPARE(summary->json().value(u"model").toString(), u"small-model"_s);
    }
    QCOMPARE(chatRequests(h.server), 4 + mainSummaryCalls); // the main server only answered the turns
}

void TestLiveAgent::sessionRunsOnItsOwnProfile_data()
{
    QTest::addColumn<QString>("stored");       // the profile the session names
    QTest::addColumn<bool>("onOther");         // its request reaches the second server
    QTest::addColumn<bool>("noted");           // the status bar says the default is used instead
    QTest::newRow("its profile exists") << u"own"_s << true << false;
    QTest::newRow("its profile is gone") << u"deleted"_s << false << true;
    QTest::newRow("the default's own") << u"fake"_s << false << false;
}

void TestLiveAgent::sessionRunsOnItsOwnProfile()
{
    QFETCH(QString, stored);
    QFETCH(bool, onOther);
    QFETCH(bool, noted);
    Harness h;
    QVERIFY(h.setUp([](Harness &hh) {
        QList<ProviderProfile> profiles = hh.settings->profiles();
        profiles.append(hh.otherProfile(u"own"_s, u"own-model"_s));
        QString error;
        return hh.settings->setProfiles(profiles, &error);
    }));
    QCOMPARE(h.window->agent()->profile().name, u"fake"_s); // a new session records the default
    QCOMPARE(h.store.session(h.sessionId)->providerName, u"fake"_s);

    QString error;
    const ProviderProfile named = h.otherProfile(stored, u"named-model"_s);
    QVERIFY2(h.store.setProviderProfile(h.sessionId, stored, named.toJson(), &error), qPrintable(error));
    QSignalSpy opened(h.window->agent(), &AgentController::sessionOpened);
    h.window->openSession(h.sessionId);
    QVERIFY(opened.wait(10000));
    QVERIFY(h.window->agent()->isOpen());
    const QString expected = onOther ? u"own"_s : u"fake"_s;
    QCOMPARE(h.window->agent()->profile().name, expected);
    QCOMPARE(h.window->findChild<AgentStatusBar *>()->modelText(), onOther ? u"own-model"_s : u"fake-model"_s);
    QCOMPARE(h.window->agent()->profileNote().isEmpty(), !noted);
    if (noted) {
        const QString message = h.window->statusBar()->currentMessage();
        QVERIFY2(message.contains(stored) && message.contains(u"fake"_s), qPrintable(message));
    }

    FakeLlmServer &answering = onOther ? h.other : h.server;
    const int before = chatRequests(h.server) + chatRequests(h.other);
    answering.enqueue(FakeReply::withText(u"from the right server"_s));
    h.type(u"which server?"_s);
    QVERIFY(h.settle());
    QCOMPARE(h.run()->state(), AgentRun::State::Finished);
    QCOMPARE(chatRequests(answering), onOther ? 1 : before + 1);
    QCOMPARE(chatRequests(h.server) + chatRequests(h.other), before + 1);
    QVERIFY(findRow(h.model(), ConversationRowKind::Assistant, [](const QModelIndex &i) {
                return i.data(ConversationModel::TextRole).toString() == u"from the right server";
            }) >= 0);
}

void TestLiveAgent::stateSurvivesReopen()
{
    Harness h;
    QVERIFY(h.setUp());
    // A height within the offscreen screen, so the restored geometry is not clamped to it (the
    // window's minimum size may widen it).
    h.window->resize(800, 700);
    QTRY_COMPARE(h.window->height(), 700);
    const QSize savedSize = h.window->size();
    auto *splitter = h.window->findChild<QSplitter *>(u"ConversationSplitter"_s);
    QVERIFY(splitter);
    const QList<int> initial = splitter->sizes();
    const int total = initial.value(0) + initial.value(1);
    splitter->setSizes({total - 200, 200}); // a taller prompt than the default
    const QList<int> sizes = splitter->sizes();
    QVERIFY(sizes != initial);
    QVERIFY(h.window->close()); // saves the layout; the session was remembered when it opened
    h.tester.reset();
    h.window.reset();

    // A new window with the same settings, started the way main() starts it.
    MainWindow again(h.settings.get());
    again.setStore(&h.store, h.dbPath);
    again.restoreLayout();
    again.show();
    QVERIFY(QTest::qWaitForWindowExposed(&again));
    QSignalSpy opened(again.agent(), &AgentController::sessionOpened);
    QVERIFY(again.openLastSession());
    QVERIFY(opened.wait(10000));
    QCOMPARE(again.session().info.id, h.sessionId);
    QCOMPARE(again.agent()->sessionId(), h.sessionId);
    auto *restored = again.findChild<QSplitter *>(u"ConversationSplitter"_s);
    QVERIFY(restored);
    QCOMPARE(again.size(), savedSize);
    QTRY_COMPARE_WITH_TIMEOUT(restored->sizes(), sizes, 2000);
}

void TestLiveAgent::offloadedBadgeOpensThatResult()
{
    Harness h;
    QVERIFY(h.setUp());
    // Two search results bigger than gate 1: both are offloaded when the tool returns.
    const qint64 gate1 = h.run()->policy().offloadAtToolTime;
    QList<FakeToolCall> calls;
    for (const QString &name : {u"first"_s, u"second"_s}) {
        QFile file(QDir(h.workspace).filePath(name + u".txt"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        QByteArray line = name.toUtf8() + QByteArray(70, 'x') + '\n';
        for (qint64 written = 0; written < gate1 * 2; written += line.size())
            file.write(line);
        file.close();
        // grep, not read_file: reading a file is exempt from gate 1.
        const QJsonObject args{{u"pattern"_s, u"x{10}"_s}, {u"path"_s, QString(name + u".txt"_s)}, {u"max_results"_s, 1000}};
        calls.append(FakeToolCall{u"call-"_s + name, u"grep"_s,
                                  QString::fromUtf8(QJsonDocument(args).toJson(QJsonDocument::Compact))});
    }
    h.server.enqueue(FakeReply::withToolCalls(calls));
    h.server.enqueue(FakeReply::withText(u"Both read."_s));
    h.type(u"read both files"_s);
    QVERIFY(h.settle());
    QCOMPARE(h.run()->state(), AgentRun::State::Finished);

    const QModelIndex first = h.model().indexForCallId(u"call-first"_s);
    QVERIFY(first.isValid());
    QVERIFY(first.data(ConversationModel::OffloadedRole).toBool());
    QVERIFY(h.model().indexForCallId(u"call-second"_s).data(ConversationModel::OffloadedRole).toBool());
    // The docks have read both offloads; the viewer shows the newest.
    QTRY_COMPARE_WITH_TIMEOUT(int(h.window->session().offloadRows().size()), 2, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(h.window->offloadsPanel()->currentCallId(), u"call-second"_s, 5000);
    QDockWidget *dock = h.window->dock(u"OffloadsDock"_s);
    QVERIFY(dock);
    dock->hide();

    QVERIFY(h.click(first.row(), ConversationAction::OpenOffload));
    QVERIFY(dock->isVisible());
    QCOMPARE(h.window->offloadsPanel()->currentCallId(), u"call-first"_s);
}

void TestLiveAgent::compactionElapsedAdvances()
{
    Harness h;
    QVERIFY(h.setUp());
    FakeReply hang = FakeReply::withFault(FakeReply::Fault::Hang);
    hang.when = [](const RecordedRequest &r) { return r.isSummarizerCall(); };
    hang.persistent = true;
    h.server.addRule(hang);
    for (int i = 0; i < 4; ++i) {
        h.server.enqueue(FakeReply::withText(u"answer %1 "_s.arg(i) + QString(400, u'a')));
        QVERIFY(h.window->agent()->send(u"question %1 "_s.arg(i) + QString(400, u'q')));
        QVERIFY(h.settle());
    }
    h.type(u"/compact force"_s);
    QTRY_VERIFY(h.model().hasProgress());
    ConversationView *view = h.window->conversationView();
    QModelIndex progress = h.model().progressIndex();
    const QDateTime started = progress.data(ConversationModel::StartedAtRole).toDateTime();
    QVERIFY(started.isValid());
    QVERIFY(started.msecsTo(QDateTime::currentDateTime()) < 1000);
    view->scrollTo(progress);
    view->ensureVisibleLayouts();
    const QImage before = view->viewport()->grab(view->visualRect(progress)).toImage();

    QTest::qWait(1100); // the painted time has whole seconds
    QVERIFY(h.model().hasProgress()); // still compacting
    progress = h.model().progressIndex();
    // The row keeps its start (an update does not restart the clock) and a second has gone by.
    QCOMPARE(progress.data(ConversationModel::StartedAtRole).toDateTime(), started);
    QVERIFY(started.secsTo(QDateTime::currentDateTime()) >= 1);
    view->scrollTo(progress);
    const QImage after = view->viewport()->grab(view->visualRect(progress)).toImage();
    QCOMPARE(after.size(), before.size());
    QVERIFY(after != before); // the elapsed time drawn on the row moved on

    QVERIFY(h.click(progress.row(), ConversationAction::Skip));
    QVERIFY(h.settle());
    QVERIFY(!h.model().hasProgress());
}

void TestLiveAgent::gaugeIsTheNextPreflightRatio_data()
{
    QTest::addColumn<qint64>("reserved");
    QTest::addColumn<bool>("countSchemas");
    QTest::newRow("no reserve") << qint64(0) << true;
    QTest::newRow("reserved output") << qint64(30000) << true;
    QTest::newRow("schemas not counted") << qint64(30000) << false;
}

// The status bar's gauge shows the ratio the next request's preflight decides on: the view,
// the tool schemas when counted, and the reserved output.
void TestLiveAgent::gaugeIsTheNextPreflightRatio()
{
    QFETCH(qint64, reserved);
    QFETCH(bool, countSchemas);
    Harness h;
    QVERIFY(h.setUp());
    h.server.enqueue(FakeReply::withText(u"A short answer."_s));
    h.type(u"say something"_s);
    QVERIFY(h.settle());
    QCOMPARE(h.run()->state(), AgentRun::State::Finished);

    CompactionPolicy policy = h.run()->policy();
    policy.reservedOutput = reserved;
    policy.countToolSchemas = countSchemas;
    h.window->agent()->setSessionPolicy(policy);
    QCOMPARE(h.run()->policy(), policy);

    PreflightInput in;
    in.sessionId = h.sessionId;
    in.systemPrompt = h.run()->systemPrompt();
    in.history = h.run()->history();
    in.overlays = h.run()->overlays();
    in.policy = policy;
    in.tools = h.run()->toolSpecs();
    in.simulateOffloads = true;
    const PreflightResult preflight = Preflight::runWithoutLlm(std::move(in));
    const ContextGauge *gauge = h.window->findChild<AgentStatusBar *>()->gauge();
    QCOMPARE(gauge->ratio(), preflight.ratioBefore);
    QCOMPARE(gauge->tier(), policy.tierFor(preflight.ratioBefore));
    const TierReason &reason = preflight.record.reason;
    QCOMPARE(h.window->agent()->estimatedTokens(), reason.estimateTokens + reason.toolSchemaTokens + reserved);
    QCOMPARE(reason.toolSchemaTokens > 0, countSchemas);
}

// A session without a policy of its own (a continued import, a session of an older version) gets
// one from the agent when it opens: with the window the docks and `simulate` showed it with, so the
// gauge, the agent and the Thresholds dock measure against one window.
void TestLiveAgent::sessionWithoutPolicy_oneWindowEverywhere()
{
    Harness h;
    QVERIFY(h.setUp([](Harness &harness) {
        ProviderProfile profile; // a model the model table does not know, and no window of its own
        profile.name = u"fake"_s;
        profile.baseUrl = harness.server.openAiBaseUrl();
        profile.model = u"fake-model"_s;
        QString error;
        return harness.settings->setProfiles({profile}, &error);
    }));
    QVERIFY(h.store.setSessionPolicy(h.sessionId, QJsonObject()));
    QSignalSpy opened(h.window->agent(), &AgentController::sessionOpened);
    QSignalSpy refreshed(h.window.get(), &MainWindow::sessionRefreshed);
    h.window->openSession(h.sessionId);
    QVERIFY(opened.wait(10000));
    QVERIFY(refreshed.wait(10000)); // the docks read the policy the agent stored
    const qint64 window = ReplayInput::defaultWindow(h.store.session(h.sessionId)->providerProfile);
    QCOMPARE(window, qint64(128000));
    QCOMPARE(h.run()->policy().contextWindow, window);
    QCOMPARE(h.window->session().policy.contextWindow, window);
    QCOMPARE(qint64(h.window->thresholdsPanel()->findChild<QSpinBox *>(u"ContextWindowSpin"_s)->value()), window);
    const ContextGauge *gauge = h.window->findChild<AgentStatusBar *>()->gauge();
    QCOMPARE(gauge->window(), window);
}

QTEST_MAIN(TestLiveAgent)
#include "tst_liveagent.moc"
