#include "tools/ApprovalGate.h"
#include "tools/ApprovalPolicy.h"
#include "tools/ToolInvocation.h"
#include "tools/Workspace.h"

#include "ToolTestHelpers.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(wl::ApprovalPolicy)

class TestApproval : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void policyDefaults();
    void policyJsonRoundTrip_data();
    void policyJsonRoundTrip();
    void policyJsonErrors();
    void gateDecisions();
    void readsRunWithoutAsking();
    void denyReturnsResultThatSaysSo();
    void allowOnceAsksAgainNextTime();
    void allowForSessionStopsAsking();
    void allowPolicySkipsAsking();
    void writeRequestCarriesDiff();
    void cancelWhileAwaitingApproval();
    void cancelWhileRunning();
    void badCallsSkipApproval_data();
    void badCallsSkipApproval();

private:
    std::unique_ptr<ToolInvocation> invoke(const QString &tool, const QJsonObject &arguments)
    {
        const ToolCall call{u"call-%1"_s.arg(++m_calls), tool,
                            QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact)), true};
        return std::make_unique<ToolInvocation>(*m_registry, *m_gate, m_context, call);
    }
    QString path(const QString &relative) const { return m_dir->path() + u'/' + relative; }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Workspace> m_workspace;
    std::unique_ptr<ToolRegistry> m_registry;
    std::unique_ptr<ApprovalGate> m_gate;
    ToolContext m_context;
    int m_calls = 0;
};

void TestApproval::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_workspace = std::make_unique<Workspace>(m_dir->path());
    m_registry = ToolRegistry::createDefault();
    m_gate = std::make_unique<ApprovalGate>();
    m_context = ToolContext{m_workspace.get(), u"s1"_s, QString()};
}

void TestApproval::policyDefaults()
{
    const ApprovalPolicy policy;
    QCOMPARE(policy.mode(ApprovalKind::Read), ApprovalMode::Allow);
    QCOMPARE(policy.mode(ApprovalKind::Write), ApprovalMode::Ask);
    QCOMPARE(policy.mode(ApprovalKind::Execute), ApprovalMode::Ask);
    QCOMPARE(policy.toJson(), (QJsonObject{{u"read"_s, u"allow"_s}, {u"write"_s, u"ask"_s}, {u"execute"_s, u"ask"_s}}));
    const ApprovalPolicy all = ApprovalPolicy::allowAll();
    QCOMPARE(all.mode(ApprovalKind::Execute), ApprovalMode::Allow);
    QCOMPARE(all.mode(ApprovalKind::Write), ApprovalMode::Allow);
}

void TestApproval::policyJsonRoundTrip_data()
{
    QTest::addColumn<ApprovalPolicy>("policy");
    ApprovalPolicy writesAllowed;
    writesAllowed.setMode(ApprovalKind::Write, ApprovalMode::Allow);
    ApprovalPolicy paranoid;
    paranoid.setMode(ApprovalKind::Read, ApprovalMode::Ask);
    QTest::newRow("default") << ApprovalPolicy();
    QTest::newRow("writes allowed") << writesAllowed;
    QTest::newRow("paranoid") << paranoid;
    QTest::newRow("allow all") << ApprovalPolicy::allowAll();
}

void TestApproval::policyJsonRoundTrip()
{
    QFETCH(ApprovalPolicy, policy);
    QString error;
    const QByteArray text = QJsonDocument(policy.toJson()).toJson();
    const ApprovalPolicy back = ApprovalPolicy::fromJson(QJsonDocument::fromJson(text).object(), &error);
    QVERIFY(error.isEmpty());
    QVERIFY(back == policy);
}

void TestApproval::policyJsonErrors()
{
    QString error;
    const ApprovalPolicy partial = ApprovalPolicy::fromJson({{u"execute"_s, u"allow"_s}}, &error);
    QVERIFY(error.isEmpty());
    QCOMPARE(partial.mode(ApprovalKind::Execute), ApprovalMode::Allow);
    QCOMPARE(partial.mode(ApprovalKind::Write), ApprovalMode::Ask);

    const ApprovalPolicy bad = ApprovalPolicy::fromJson({{u"write"_s, u"yes please"_s}, {u"execute"_s, 1}}, &error);
    QCOMPARE(error, u"'write' must be \"ask\" or \"allow\"; 'execute' must be \"ask\" or \"allow\""_s);
    QVERIFY(bad == ApprovalPolicy());  // bad values keep the safe defaults
}

void TestApproval::gateDecisions()
{
    ApprovalGate gate;
    QSignalSpy allowances(&gate, &ApprovalGate::sessionAllowancesChanged);
    QVERIFY(!gate.needsApproval(u"read_file"_s, ApprovalKind::Read));
    QVERIFY(gate.needsApproval(u"bash"_s, ApprovalKind::Execute));
    QVERIFY(gate.needsApproval(u"edit_file"_s, ApprovalKind::Write));

    ApprovalRequest bash;
    bash.toolName = u"bash"_s;
    QVERIFY(gate.decide(bash, ApprovalDecision::AllowOnce));
    QVERIFY(gate.needsApproval(u"bash"_s, ApprovalKind::Execute));
    QVERIFY(!gate.decide(bash, ApprovalDecision::Deny));
    QCOMPARE(allowances.size(), 0);

    QVERIFY(gate.decide(bash, ApprovalDecision::AllowForSession));
    QVERIFY(!gate.needsApproval(u"bash"_s, ApprovalKind::Execute));
    QVERIFY(gate.needsApproval(u"edit_file"_s, ApprovalKind::Write));  // only that tool
    QCOMPARE(gate.sessionAllowedTools(), QStringList{u"bash"_s});
    QCOMPARE(allowances.size(), 1);
    gate.decide(bash, ApprovalDecision::AllowForSession);
    QCOMPARE(allowances.size(), 1);

    gate.resetSession();
    QVERIFY(gate.needsApproval(u"bash"_s, ApprovalKind::Execute));
    QCOMPARE(allowances.size(), 2);

    QSignalSpy policyChanged(&gate, &ApprovalGate::policyChanged);
    gate.setPolicy(ApprovalPolicy::allowAll());
    QCOMPARE(policyChanged.size(), 1);
    QVERIFY(!gate.needsApproval(u"bash"_s, ApprovalKind::Execute));

    const ToolResult denied = ApprovalGate::deniedResult(bash);
    QVERIFY(denied.isError);
    QCOMPARE(denied.content, u"the user denied this bash call"_s);
}

void TestApproval::readsRunWithoutAsking()
{
    QVERIFY(test::writeBytes(path(u"a.txt"_s), "hello"));
    auto invocation = invoke(u"read_file"_s, {{u"path"_s, u"a.txt"_s}});
    QSignalSpy asked(invocation.get(), &ToolInvocation::approvalRequested);
    QSignalSpy finished(invocation.get(), &ToolInvocation::finished);
    invocation->start();
    QCOMPARE(finished.size(), 0);  // never inside start()
    QVERIFY(finished.wait(5000));
    QCOMPARE(asked.size(), 0);
    QCOMPARE(invocation->result().content, u"hello"_s);
    QCOMPARE(invocation->state(), ToolInvocation::State::Finished);
}

void TestApproval::denyReturnsResultThatSaysSo()
{
    auto invocation = invoke(u"bash"_s, {{u"command"_s, u"touch ran.txt"_s}});
    QSignalSpy asked(invocation.get(), &ToolInvocation::approvalRequested);
    QSignalSpy finished(invocation.get(), &ToolInvocation::finished);
    invocation->start();
    QCOMPARE(asked.size(), 1);
    QCOMPARE(invocation->state(), ToolInvocation::State::AwaitingApproval);
    const ApprovalRequest request = asked.first().first().value<ApprovalRequest>();
    QCOMPARE(request.command, u"touch ran.txt"_s);
    QCOMPARE(request.callId, invocation->call().id);
    QCOMPARE(request.kind, ApprovalKind::Execute);

    invocation->decide(ApprovalDecision::Deny);
    QVERIFY(finished.wait(5000));
    const ToolResult result = invocation->result();
    QVERIFY(result.isError);
    QCOMPARE(result.content, u"the user denied this bash call"_s);
    QCOMPARE(result.metadata.value(u"denied"_s).toBool(), true);
    QVERIFY(!QFileInfo::exists(path(u"ran.txt"_s)));
    invocation->decide(ApprovalDecision::AllowOnce);  // too late: ignored
    QTest::qWait(50);
    QCOMPARE(finished.size(), 1);
    QVERIFY(!QFileInfo::exists(path(u"ran.txt"_s)));
}

void TestApproval::allowOnceAsksAgainNextTime()
{
    auto first = invoke(u"bash"_s, {{u"command"_s, u"echo 1 >> log.txt"_s}});
    QSignalSpy firstDone(first.get(), &ToolInvocation::finished);
    first->start();
    QCOMPARE(first->state(), ToolInvocation::State::AwaitingApproval);
    first->decide(ApprovalDecision::AllowOnce);
    QVERIFY(firstDone.wait(10000));
    QCOMPARE(first->result().exitCode, 0);
    QCOMPARE(test::readBytes(path(u"log.txt"_s)), QByteArray("1\n"));

    auto second = invoke(u"bash"_s, {{u"command"_s, u"echo 2 >> log.txt"_s}});
    QSignalSpy asked(second.get(), &ToolInvocation::approvalRequested);
    second->start();
    QCOMPARE(asked.size(), 1);
}

void TestApproval::allowForSessionStopsAsking()
{
    auto first = invoke(u"bash"_s, {{u"command"_s, u"echo 1 >> log.txt"_s}});
    QSignalSpy firstDone(first.get(), &ToolInvocation::finished);
    first->start();
    first->decide(ApprovalDecision::AllowForSession);
    QVERIFY(firstDone.wait(10000));

    auto second = invoke(u"bash"_s, {{u"command"_s, u"echo 2 >> log.txt"_s}});
    QSignalSpy asked(second.get(), &ToolInvocation::approvalRequested);
    QSignalSpy secondDone(second.get(), &ToolInvocation::finished);
    second->start();
    QVERIFY(secondDone.wait(10000));
    QCOMPARE(asked.size(), 0);
    QCOMPARE(test::readBytes(path(u"log.txt"_s)), QByteArray("1\n2\n"));

    // Writes were not allowed along with bash.
    auto write = invoke(u"write_file"_s, {{u"path"_s, u"x.txt"_s}, {u"content"_s, u"x"_s}});
    QSignalSpy writeAsked(write.get(), &ToolInvocation::approvalRequested);
    write->start();
    QCOMPARE(writeAsked.size(), 1);
}

void TestApproval::allowPolicySkipsAsking()
{
    m_gate->setPolicy(ApprovalPolicy::allowAll());
    auto invocation = invoke(u"write_file"_s, {{u"path"_s, u"x.txt"_s}, {u"content"_s, u"x"_s}});
    QSignalSpy asked(invocation.get(), &ToolInvocation::approvalRequested);
    QSignalSpy finished(invocation.get(), &ToolInvocation::finished);
    invocation->start();
    QVERIFY(finished.wait(5000));
    QCOMPARE(asked.size(), 0);
    QCOMPARE(test::readBytes(path(u"x.txt"_s)), QByteArray("x"));
}

void TestApproval::writeRequestCarriesDiff()
{
    QVERIFY(test::writeBytes(path(u"f.txt"_s), "keep\nold\n"));
    auto invocation = invoke(u"edit_file"_s, {{u"path"_s, u"f.txt"_s}, {u"old_text"_s, u"old"_s}, {u"new_text"_s, u"new"_s}});
    QSignalSpy asked(invocation.get(), &ToolInvocation::approvalRequested);
    QSignalSpy finished(invocation.get(), &ToolInvocation::finished);
    invocation->start();
    QCOMPARE(asked.size(), 1);
    const ApprovalRequest request = invocation->request();
    QCOMPARE(request.path, u"f.txt"_s);
    QCOMPARE(request.diff, u"--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n"_s);
    QCOMPARE(test::readBytes(path(u"f.txt"_s)), QByteArray("keep\nold\n"));
    invocation->decide(ApprovalDecision::AllowOnce);
    QVERIFY(finished.wait(5000));
    QVERIFY2(!invocation->result().isError, qPrintable(invocation->result().content));
    QCOMPARE(test::readBytes(path(u"f.txt"_s)), QByteArray("keep\nnew\n"));
}

void TestApproval::cancelWhileAwaitingApproval()
{
    auto invocation = invoke(u"write_file"_s, {{u"path"_s, u"x.txt"_s}, {u"content"_s, u"x"_s}});
    QSignalSpy finished(invocation.get(), &ToolInvocation::finished);
    invocation->start();
    QCOMPARE(invocation->state(), ToolInvocation::State::AwaitingApproval);
    invocation->cancel();
    QVERIFY(finished.wait(5000));
    QCOMPARE(invocation->result().content, u"the write_file call was cancelled by the user"_s);
    QCOMPARE(invocation->result().metadata.value(u"cancelled"_s).toBool(), true);
    QVERIFY(!QFileInfo::exists(path(u"x.txt"_s)));
}

void TestApproval::cancelWhileRunning()
{
    m_gate->setPolicy(ApprovalPolicy::allowAll());
    auto invocation = invoke(u"bash"_s, {{u"command"_s, u"sleep 30"_s}});
    QSignalSpy finished(invocation.get(), &ToolInvocation::finished);
    invocation->start();
    QCOMPARE(invocation->state(), ToolInvocation::State::Running);
    QElapsedTimer clock;
    clock.start();
    invocation->cancel();
    QVERIFY(finished.wait(1000));
    QVERIFY(clock.elapsed() < 1000);
    QCOMPARE(invocation->result().metadata.value(u"cancelled"_s).toBool(), true);
}

void TestApproval::badCallsSkipApproval_data()
{
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown tool") << u"rm"_s << u"{}"_s << u"unknown tool 'rm'"_s;
    QTest::newRow("invalid json") << u"bash"_s << u"{\"command\":"_s << u"invalid arguments for bash: the arguments are not valid JSON"_s;
    QTest::newRow("missing field") << u"edit_file"_s << u"{\"path\":\"f\"}"_s << u"invalid arguments for edit_file: 'old_text' is required"_s;
}

void TestApproval::badCallsSkipApproval()
{
    QFETCH(QString, tool);
    QFETCH(QString, arguments);
    QFETCH(QString, message);
    ToolInvocation invocation(*m_registry, *m_gate, m_context, ToolCall{u"c"_s, tool, arguments, false});
    QSignalSpy asked(&invocation, &ToolInvocation::approvalRequested);
    QSignalSpy finished(&invocation, &ToolInvocation::finished);
    invocation.start();
    QVERIFY(finished.wait(5000));
    QCOMPARE(asked.size(), 0);
    QVERIFY(invocation.result().isError);
    QVERIFY2(invocation.result().content.startsWith(message), qPrintable(invocation.result().content));
}

QTEST_GUILESS_MAIN(TestApproval)
#include "tst_approval.moc"
