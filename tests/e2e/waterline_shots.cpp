// Renders the README's screenshots of the live agent against the fake LLM server (not a test, a
// helper; the shipped app has no scripted-server mode):
//
//   waterline_shots running OUT.png    a conversation with a finished tool card and a pending approval
//   waterline_shots settings OUT.png   the Settings dialog on its Providers page
//   waterline_shots continue OUT.png   the dialog that continues an imported session
//   waterline_shots proxy OUT.png      the Proxy dock running, with the traffic of an agent
//   waterline_shots proxy-compact OUT.png  a conversation through the window's proxy in compact
//                                        mode, its recorded session open: Waterline's compactions
//                                        on the timeline
//   waterline_shots edit-checkpoint OUT.png  a checkpoint of the demo session open in the editor,
//                                        its Next step anchor being edited
//   waterline_shots claude-live OUT.png  the real Claude Code (from scripts/npm-clients) working
//                                        through the window's proxy, its session's timeline
//                                        filling while it runs
//
// Run it under Xvfb with fresh XDG_CONFIG_HOME / XDG_DATA_HOME folders.
#include "AgentCliScript.h"
#include "FakeLlmServer.h"
#include "MainWindow.h"

#include "agent/AgentRun.h"
#include "conversation/ConversationModel.h"
#include "conversation/ConversationView.h"
#include "conversation/PromptInput.h"
#include "proxy/ProxyControl.h"
#include "review/CheckpointEditing.h"
#include "review/SummaryReviewDialog.h"
#include "workbench/LoadedSession.h"
#include "sessions/ContinueSessionDialog.h"
#include "sessions/SessionsPanel.h"
#include "timeline/TimelinePanel.h"
#include "settings/AppSettings.h"
#include "settings/SettingsDialog.h"
#include "store/SessionStore.h"
#include "workbench/AgentController.h"
#include "workbench/SessionLifecycle.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPlainTextEdit>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

#include <algorithm>
#include <cstdio>
#include <functional>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {

int fail(const QString &text)
{
    std::fprintf(stderr, "waterline_shots: %s\n", qPrintable(text));
    return 1;
}

QString json(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// A small project for Claude Code to look at, a few files of some size each, so every round trip
// adds to the conversation.
void writeGaugeProject(const QString &workspace)
{
    QDir().mkpath(workspace + u"/src"_s);
    QDir().mkpath(workspace + u"/data"_s);
    writeFile(workspace + u"/README.md"_s, "# weir\n\nReads the river gauges and flags the weirs that run high.\n");
    QByteArray code = "\"\"\"Flow over the weirs, from the gauge readings.\"\"\"\n\n";
    for (int i = 0; i < 120; ++i)
        code += QStringLiteral("def weir_%1(level_m, width_m=%2.5):\n    \"\"\"Flow over weir %1 in m3/s.\"\"\"\n"
                               "    return 1.84 * width_m * level_m ** 1.5\n\n").arg(i).arg(i % 9 + 1).toUtf8();
    writeFile(workspace + u"/src/weir.py"_s, code);
    QByteArray csv = "time,weir,level_m\n";
    for (int i = 0; i < 1400; ++i)
        csv += QStringLiteral("2026-03-%1T%2:00,%3,%4.%5\n").arg(i % 28 + 1, 2, 10, QChar(u'0')).arg(i % 24, 2, 10, QChar(u'0'))
                   .arg(i % 120).arg(i % 3).arg(i % 97, 2, 10, QChar(u'0')).toUtf8();
    writeFile(workspace + u"/data/readings.csv"_s, csv);
}

// The real Claude Code against the fake upstream through the window's own proxy, recording into
// the window's (temporary) database: the session is opened from the window's list as soon as it
// is there, and the window is grabbed once several requests are in and Claude Code is still at
// work.
int claudeLive(MainWindow &window, SessionStore &store, FakeLlmServer &server, const QString &root, const QString &out)
{
    QString error;
    const QString modules = npmClientsModules(QStringLiteral(WATERLINE_SOURCE_DIR), QStringLiteral(WATERLINE_NPM_CACHE_HOME), &error);
    if (modules.isEmpty())
        return fail(error);
    const QString workspace = root + u"/weir"_s;
    writeGaugeProject(workspace);
    using Step = ClaudeCodeScript;
    ClaudeCodeScript script({Step::read(u"toolu_01"_s, workspace + u"/README.md"_s, u"Let me look at the project first."_s),
                             Step::bash(u"toolu_02"_s, u"ls -R"_s, u"List the files"_s),
                             Step::read(u"toolu_03"_s, workspace + u"/src/weir.py"_s, u"The flow formulas are in weir.py."_s),
                             Step::bash(u"toolu_04"_s, u"grep -c '^def ' src/weir.py"_s, u"Count the weirs"_s),
                             Step::read(u"toolu_05"_s, workspace + u"/data/readings.csv"_s, u"Now the readings."_s),
                             Step::bash(u"toolu_06"_s, u"sort -t, -k3 -n -r data/readings.csv | head -5"_s, u"Highest levels"_s),
                             Step::bash(u"toolu_07"_s, u"awk -F, 'NR>1 && $3>2.9' data/readings.csv | wc -l"_s, u"Count high readings"_s),
                             Step::bash(u"toolu_08"_s, u"python3 -c 'print(1.84*2.5*2.96**1.5)'"_s, u"Flow at the peak"_s)},
                            u"Weir 2 ran highest (2.96 m, about 23 m3/s); 14 readings were above 2.9 m."_s);
    script.setDelayMs(120);
    server.setResponder([&script](const RecordedRequest &request) { return script.respond(request); });

    const QString dbPath = root + u"/sessions.db"_s;
    if (!store.open(dbPath, &error))
        return fail(error);
    window.setStore(&store, dbPath);
    window.resize(1920, 1080);
    window.show();
    ProxyControl *proxy = window.proxy();
    if (!proxy->start(server.url(), 0))
        return fail(proxy->lastError());
    // The timeline and the proxy's traffic side by side along the bottom.
    QDockWidget *timeline = window.dock(u"TimelineDock"_s);
    QDockWidget *traffic = window.dock(u"ProxyDock"_s);
    window.removeDockWidget(traffic);
    window.addDockWidget(Qt::BottomDockWidgetArea, traffic, Qt::Horizontal);
    traffic->show();
    timeline->show();
    timeline->raise();
    QTimer::singleShot(0, &window, [&window, timeline, traffic] {
        window.resizeDocks({timeline, traffic}, {1180, 740}, Qt::Horizontal);
        window.resizeDocks({timeline}, {440}, Qt::Vertical);
        // Claude Code's requests against the 128,000-token default window are low lines: in tokens
        // their growth shows.
        const QList<QToolButton *> buttons = window.timelinePanel()->findChildren<QToolButton *>();
        for (QToolButton *button : buttons) {
            if (button->text() == u"Tokens")
                button->click();
        }
    });

    QProcess claude;
    claude.setWorkingDirectory(workspace);
    claude.setProcessEnvironment(claudeCodeEnvironment(root + u"/home"_s, proxy->baseUrl(), u"sk-ant-dummy-key-for-the-screenshot"_s));
    claude.setStandardInputFile(QProcess::nullDevice());
    const QMetaObject::Connection early = QObject::connect(&claude, &QProcess::finished, &window, [&claude](int code) {
        fail(u"Claude Code finished (exit %1) before the window was grabbed: %2"_s.arg(code).arg(
            QString::fromUtf8(claude.readAllStandardError().right(2000))));
        QCoreApplication::exit(1);
    });

    // The agent's session is the one with more than one request (a side request makes a session of
    // one); it is opened once the window's list has it, and grabbed at its 7th request.
    QString agentSession;
    bool opened = false;
    bool grabbing = false;
    QObject::connect(proxy, &ProxyControl::sessionRecorded, &window, [&](const QString &id, int requests) {
        if (agentSession.isEmpty() && requests >= 2)
            agentSession = id;
        if (id != agentSession || requests < 7 || grabbing)
            return;
        grabbing = true;
        QTimer::singleShot(1500, &window, [&] {
            QObject::disconnect(early);
            window.conversationView()->scrollToBottom();
            QCoreApplication::processEvents();
            const bool ok = claude.state() == QProcess::Running && window.grab().save(out, "PNG");
            if (claude.state() != QProcess::Running)
                fail(u"Claude Code was done before the grab"_s);
            claude.kill();
            claude.waitForFinished(5000);
            QCoreApplication::exit(ok ? 0 : 1);
        });
    });
    QObject::connect(window.sessions(), &SessionLifecycle::sessionsListed, &window, [&](const QList<SessionInfo> &sessions) {
        if (opened || agentSession.isEmpty())
            return;
        if (std::any_of(sessions.cbegin(), sessions.cend(), [&](const SessionInfo &s) { return s.id == agentSession; })) {
            opened = true;
            window.sessions()->open(agentSession);
        }
    });
    QTimer::singleShot(60000, &window, [] {
        fail(u"the run did not reach its 7th request in a minute"_s);
        QCoreApplication::exit(1);
    });

    claude.start(claudeCodeBinary(modules), {u"-p"_s, u"Which weir ran highest, and what was its flow?"_s, u"--allowedTools"_s,
                                             u"Read"_s, u"Bash"_s, u"--max-turns"_s, u"12"_s});
    if (!claude.waitForStarted(10000))
        return fail(claude.errorString());
    return QCoreApplication::exec();
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(u"Waterline"_s);
    QCoreApplication::setApplicationName(u"waterline"_s);
    const QStringList args = QCoreApplication::arguments();
    const QStringList modes{u"running"_s, u"settings"_s, u"continue"_s, u"proxy"_s, u"claude-live"_s, u"edit-checkpoint"_s,
                            u"proxy-compact"_s};
    if (args.size() != 3 || !modes.contains(args[1]))
        return fail(u"usage: waterline_shots %1 OUT.png"_s.arg(modes.join(u'|')));
    const QString mode = args[1];
    const QString out = QDir::current().absoluteFilePath(args[2]);

    QTemporaryDir dir;
    FakeLlmServer server;
    if (!dir.isValid() || !server.start())
        return fail(u"cannot set up the fake server"_s);
    server.setModels({u"qwen3-coder:30b"_s, u"qwen3:8b"_s});

    AppSettings settings(dir.filePath(u"settings.ini"_s));
    ProviderProfile local;
    local.name = u"Local (Ollama)"_s;
    local.baseUrl = server.openAiBaseUrl();
    local.model = u"qwen3-coder:30b"_s;
    local.contextWindow = 32768;
    ProviderProfile hosted;
    hosted.name = u"Anthropic"_s;
    hosted.protocol = ProviderProfile::Protocol::Anthropic;
    hosted.baseUrl = QUrl(u"https://api.anthropic.com"_s);
    hosted.model = u"claude-sonnet-4-5"_s;
    hosted.keyRef = u"ANTHROPIC_API_KEY"_s;
    QString error;
    if (!settings.setProfiles({local, hosted}, &error))
        return fail(error);
    settings.setDefaultProfileName(local.name);

    SessionStore store; // outlives the window, whose agent stores until it goes
    MainWindow window(&settings);
    window.resize(1400, 900);

    if (mode == u"continue") {
        ContinueSessionDialog dialog(u"Fix the failing date parser (Codex, imported)"_s, {local, hosted}, local.name);
        dialog.setWorkspace(QDir::homePath() + u"/src/dateparse"_s);
        dialog.show();
        QTimer::singleShot(500, &app, [&dialog, out] {
            const bool ok = dialog.grab().save(out, "PNG");
            QCoreApplication::exit(ok ? 0 : 1);
        });
        return app.exec();
    }

    if (mode == u"proxy") {
        window.show();
        ProxyControl *proxy = window.proxy();
        if (!proxy->start(server.url(), 0))
            return fail(proxy->lastError());
        QDockWidget *dock = window.dock(u"ProxyDock"_s);
        dock->show();
        dock->raise();
        // What an agent's first minute looks like through it: streamed turns, a slow one, a 429.
        const QList<std::pair<QString, FakeReply>> exchanges = [] {
            QList<std::pair<QString, FakeReply>> list;
            for (int i = 0; i < 5; ++i) {
                FakeReply reply = FakeReply::withText(u"Reading the project, step %1."_s.arg(i + 1));
                reply.delayMs = 20 + 15 * i;
                list.append({u"/v1/messages?beta=true"_s, reply});
            }
            list.append({u"/v1/messages?beta=true"_s,
                         FakeReply::withStatus(429, R"({"type":"error","error":{"type":"rate_limit_error","message":"slow down"}})",
                                               {{"Retry-After", "2"}})});
            FakeReply codex = FakeReply::withText(u"Codex through the same proxy."_s);
            codex.delayMs = 30;
            list.append({u"/v1/responses"_s, codex});
            return list;
        }();
        QNetworkAccessManager client;
        qsizetype sent = 0;
        std::function<void()> next = [&]() {
            if (sent >= exchanges.size()) {
                QTimer::singleShot(600, &app, [&window, out] {
                    const bool ok = window.grab().save(out, "PNG");
                    QCoreApplication::exit(ok ? 0 : 1);
                });
                return;
            }
            const auto &[path, reply] = exchanges.at(sent++);
            server.enqueue(reply);
            QNetworkRequest request(QUrl(proxy->baseUrl().toString() + path));
            request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
            QNetworkReply *answer = client.post(request, R"({"model":"claude-sonnet-4-5","stream":true,"max_tokens":64,"messages":[]})");
            QObject::connect(answer, &QNetworkReply::finished, &app, [answer, &next] {
                answer->deleteLater();
                QTimer::singleShot(120, qApp, next);
            });
        };
        QTimer::singleShot(300, &app, next);
        return app.exec();
    }

    if (mode == u"proxy-compact") {
        const QString recordedDb = dir.filePath(u"recorded.db"_s);
        QString why;
        if (!store.open(recordedDb, &why))
            return fail(why);
        window.setStore(&store, recordedDb); // the proxy records into the open database
        window.show();
        ProxyControl *proxy = window.proxy();
        proxy->setOffloadRoot(dir.filePath(u"offloads"_s));
        CompactionPolicy policy;
        policy.contextWindow = 6000;
        policy.tailMessages = 4;
        proxy->setCompactPolicy(policy);
        proxy->setCompacting(true);
        if (!proxy->start(server.url(), 0))
            return fail(proxy->lastError());
        // A Chat Completions client whose conversation grows by a 1,200-character turn a request.
        QJsonArray messages{QJsonObject{{u"role"_s, u"system"_s}, {u"content"_s, u"You are a careful coding agent."_s}}};
        QNetworkAccessManager client;
        QString sessionId;
        int sent = 0;
        std::function<void()> next = [&]() {
            if (sent >= 26) {
                if (sessionId.isEmpty()) {
                    QCoreApplication::exit(fail(u"nothing was recorded"_s));
                    return;
                }
                window.sessions()->open(sessionId);
                QTimer::singleShot(1500, &app, [&window, out] {
                    const bool ok = window.grab().save(out, "PNG");
                    QCoreApplication::exit(ok ? 0 : 1);
                });
                return;
            }
            ++sent;
            messages.append(QJsonObject{{u"role"_s, u"user"_s},
                                        {u"content"_s, QString(u"Step %1: read module %1 and say what it does. "_s.arg(sent)
                                                               + u"def handler(event): return event.payload "_s.repeated(28))}});
            server.enqueue(FakeReply::withText(u"Module %1 parses the payload and hands it on."_s.arg(sent)));
            QNetworkRequest request(QUrl(proxy->baseUrl().toString() + u"/v1/chat/completions"_s));
            request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
            QNetworkReply *answer = client.post(request, QJsonDocument(QJsonObject{{u"model"_s, u"gpt-4.1"_s},
                                                                                   {u"stream"_s, true},
                                                                                   {u"messages"_s, messages}})
                                                             .toJson(QJsonDocument::Compact));
            QObject::connect(answer, &QNetworkReply::finished, &app, [answer, &messages, &next, sent] {
                answer->deleteLater();
                messages.append(QJsonObject{{u"role"_s, u"assistant"_s},
                                            {u"content"_s, u"Module %1 parses the payload and hands it on."_s.arg(sent)}});
                QTimer::singleShot(60, qApp, next);
            });
        };
        QObject::connect(proxy, &ProxyControl::sessionRecorded, &window,
                         [&sessionId](const QString &id) { sessionId = id; });
        QTimer::singleShot(300, &app, next);
        return app.exec();
    }

    if (mode == u"edit-checkpoint") {
        window.show();
        QObject::connect(window.sessions(), &SessionLifecycle::demoFailed, &app, [](const QString &why) {
            fail(why);
            QCoreApplication::exit(1);
        });
        QObject::connect(window.sessions(), &SessionLifecycle::opened, &app, [&window, out](const LoadedSession &session) {
            // The checkpoint of the demo's third compaction with one: merged anchors, a real summary.
            QList<Checkpoint> withText;
            for (const Checkpoint &cp : session.overlays.checkpoints)
                if (!cp.summary.isEmpty())
                    withText.append(cp);
            if (withText.isEmpty()) {
                fail(u"the demo has no checkpoint"_s);
                QCoreApplication::exit(1);
                return;
            }
            if (!window.checkpointEditing()->edit(withText.at(std::min<qsizetype>(2, withText.size() - 1)))) {
                fail(u"the editor did not open"_s);
                QCoreApplication::exit(1);
                return;
            }
            SummaryReviewDialog *dialog = window.checkpointEditing()->dialog();
            dialog->resize(1400, 860);
            QPlainTextEdit *next = dialog->anchorEdit(AnchorKind::NextStep);
            next->setPlainText(next->toPlainText() + u"\n- run the whole test suite before the next commit"_s);
            QTimer::singleShot(800, dialog, [dialog, out] {
                const bool ok = dialog->grab().save(out, "PNG");
                QCoreApplication::exit(ok ? 0 : 1);
            });
        });
        window.sessions()->openDemo();
        return app.exec();
    }

    if (mode == u"claude-live")
        return claudeLive(window, store, server, dir.path(), out);

    if (mode == u"settings") {
        window.show();
        window.showSettings();
        SettingsDialog *dialog = window.settingsDialog();
        dialog->resize(900, 600);
        QTimer::singleShot(800, &app, [dialog, out] {
            const bool ok = dialog->grab().save(out, "PNG");
            QCoreApplication::exit(ok ? 0 : 1);
        });
        return app.exec();
    }

    // A small project for the agent to look at.
    const QString workspace = dir.filePath(u"calc"_s);
    QDir().mkpath(workspace);
    writeFile(workspace + u"/README.md"_s, "# calc\n\nA tiny expression evaluator.\n\nBuild with `make`, test with `make test`.\n");
    writeFile(workspace + u"/Makefile"_s, "test:\n\tpython3 -m pytest -q\n");

    const QString dbPath = dir.filePath(u"sessions.db"_s);
    if (!store.open(dbPath, &error))
        return fail(error);
    window.setStore(&store, dbPath);
    window.show();
    // Stored off the GUI thread, then opened (the agent's connections below are made first).
    window.sessionsPanel()->createSession(u"calc: fix the parser"_s, workspace);
    QObject::connect(window.sessions(), &SessionLifecycle::writeFailed, &app,
                     [](SessionLifecycle::Write, const QString &, const QString &why) {
        fail(why);
        QCoreApplication::exit(1);
    });

    // Turn 1: read the README, answer. Turn 2: a bash call waiting for approval.
    FakeReply read = FakeReply::withToolCalls({{u"call_read"_s, u"read_file"_s, json({{u"path"_s, u"README.md"_s}})}},
                                              u"I'll start by reading the README to see how the project is built."_s);
    read.inputTokens = 2841;
    server.enqueue(read);
    FakeReply answer = FakeReply::withText(
        u"**calc** is a tiny expression evaluator. It builds with `make` and its tests run with `make test` "
        "(pytest underneath). Tell me what to change and I'll start with a failing test."_s);
    answer.inputTokens = 3120;
    server.enqueue(answer);
    FakeReply run = FakeReply::withToolCalls({{u"call_test"_s, u"bash"_s, json({{u"command"_s, u"make test 2>&1 | tail -n 40"_s}})}},
                                             u"Let me run the test suite first to see what fails."_s);
    run.inputTokens = 3422;
    server.enqueue(run);

    AgentController *agent = window.agent();
    QObject::connect(agent, &AgentController::sessionOpened, &window, [&window, agent] {
        QObject::connect(agent->run(), &AgentRun::finished, &window, [&window] {
            QTimer::singleShot(100, &window, [&window] {
                window.promptInput()->editor()->setPlainText(u"The parser rejects \"2*(3+4)\". Run the tests and fix it."_s);
                window.promptInput()->submit();
            });
        }, Qt::SingleShotConnection);
        QObject::connect(agent->run(), &AgentRun::approvalRequested, &window, [&window] {
            QTimer::singleShot(1200, &window, [&window] {
                window.promptInput()->editor()->clear();
                window.conversationView()->scrollToBottom();
            });
        });
        agent->send(u"What does this project do, and how do I build it?"_s);
    }, Qt::SingleShotConnection);
    QObject::connect(agent, &AgentController::openFailed, &app, [](const QString &, const QString &why) {
        fail(why);
        QCoreApplication::exit(1);
    });

    // Grab once the approval has been pending for a moment and the docks were refreshed.
    QTimer poll;
    poll.setInterval(200);
    int waited = 0;
    QObject::connect(&poll, &QTimer::timeout, &app, [&] {
        waited += 200;
        if (waited > 60000) {
            fail(u"the scripted conversation did not reach the approval"_s);
            QCoreApplication::exit(1);
            return;
        }
        if (!agent->run() || agent->run()->state() != AgentRun::State::AwaitingApproval || waited < 3000)
            return;
        poll.stop();
        QTimer::singleShot(1500, &app, [&] {
            const bool ok = window.grab().save(out, "PNG");
            QCoreApplication::exit(ok ? 0 : 1);
        });
    });
    poll.start();
    return app.exec();
}
