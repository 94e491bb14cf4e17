#include "model/MessageCodec.h"
#include "tools/Tool.h"
#include "tools/ToolArguments.h"
#include "tools/Workspace.h"

#include "ToolTestHelpers.h"

#include <QJsonArray>
#include <QSemaphore>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

// A tool whose result says which instance ran, to see add() replace by name.
class EchoTool : public Tool
{
public:
    explicit EchoTool(QString tag) : m_tag(std::move(tag)) {}
    ToolSpec spec() const override
    {
        return ToolSpec{u"read_file"_s, u"echo"_s, ToolArguments::objectSchema({}, {})};
    }
    ApprovalKind approvalKind() const override { return ApprovalKind::Read; }

protected:
    ToolRun *run(const QJsonObject &, const ToolContext &, QObject *parent) override
    {
        return ToolRun::withResult(name(), ToolResult::success(m_tag), parent);
    }

private:
    QString m_tag;
};

} // namespace

class TestToolRegistry : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void defaultToolsAndSpecs();
    void specsSurviveTheCodec();
    void unknownTool();
    void invalidArguments_data();
    void invalidArguments();
    void approvalRequestForBadCall();
    void addReplacesByName();
    void noWorkspace();
    void immediateRunFinishesAfterStart();
    void threadRunCancel();
    void threadRunDeletedWhileWorking();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Workspace> m_workspace;
    std::unique_ptr<ToolRegistry> m_registry;
    ToolContext m_context;
};

void TestToolRegistry::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_workspace = std::make_unique<Workspace>(m_dir->path());
    m_registry = ToolRegistry::createDefault();
    m_context = ToolContext{m_workspace.get(), u"s1"_s, u"call-1"_s};
}

void TestToolRegistry::defaultToolsAndSpecs()
{
    const QStringList expected{u"read_file"_s, u"write_file"_s, u"edit_file"_s, u"bash"_s, u"glob"_s, u"grep"_s,
                               u"pin_fact"_s};
    QCOMPARE(m_registry->names(), expected);
    const QList<ToolSpec> specs = m_registry->specs();
    QCOMPARE(specs.size(), expected.size());
    for (const ToolSpec &spec : specs) {
        QVERIFY(!spec.description.isEmpty());
        QCOMPARE(spec.inputSchema.value(u"type"_s).toString(), u"object"_s);
        const QJsonObject properties = spec.inputSchema.value(u"properties"_s).toObject();
        const QJsonArray required = spec.inputSchema.value(u"required"_s).toArray();
        QVERIFY(!required.isEmpty());
        for (const QJsonValue &name : required)
            QVERIFY2(properties.contains(name.toString()), qPrintable(spec.name + u": "_s + name.toString()));
        for (const QJsonValue &property : properties)
            QVERIFY(!property.toObject().value(u"type"_s).toString().isEmpty());
    }
    QCOMPARE(m_registry->tool(u"bash"_s)->approvalKind(), ApprovalKind::Execute);
    QCOMPARE(m_registry->tool(u"edit_file"_s)->approvalKind(), ApprovalKind::Write);
    QCOMPARE(m_registry->tool(u"write_file"_s)->approvalKind(), ApprovalKind::Write);
    for (const QString &reader : {u"read_file"_s, u"glob"_s, u"grep"_s})
        QCOMPARE(m_registry->tool(reader)->approvalKind(), ApprovalKind::Read);
    QVERIFY(m_registry->tool(u"nope"_s) == nullptr);
}

void TestToolRegistry::specsSurviveTheCodec()
{
    for (const ToolSpec &spec : m_registry->specs()) {
        QString error;
        const std::optional<ToolSpec> decoded = MessageCodec::toolSpecFromJson(MessageCodec::toJson(spec), &error);
        QVERIFY2(decoded.has_value(), qPrintable(error));
        QCOMPARE(*decoded, spec);
    }
}

void TestToolRegistry::unknownTool()
{
    const ToolResult result = test::runCall(*m_registry, m_context, u"delete_everything"_s, u"{}"_s);
    QVERIFY(result.isError);
    QCOMPARE(result.content, u"unknown tool 'delete_everything'; the available tools are: read_file, write_file, "
                             "edit_file, bash, glob, grep, pin_fact"_s);
}

void TestToolRegistry::invalidArguments_data()
{
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("not json") << u"bash"_s << u"{\"command\": \"ls"_s
                              << u"invalid arguments for bash: the arguments are not valid JSON ("_s;
    QTest::newRow("truncated object") << u"edit_file"_s << u"{\"path\": \"a\", "_s
                                      << u"invalid arguments for edit_file: the arguments are not valid JSON ("_s;
    QTest::newRow("array") << u"bash"_s << u"[\"ls\"]"_s << u"invalid arguments for bash: the arguments must be a JSON object"_s;
    QTest::newRow("string") << u"grep"_s << u"\"TODO\""_s << u"invalid arguments for grep: the arguments must be a JSON object"_s;
    QTest::newRow("empty text") << u"bash"_s << QString() << u"invalid arguments for bash: 'command' is required"_s;
    QTest::newRow("missing field") << u"edit_file"_s << u"{\"path\": \"a\", \"new_text\": \"b\"}"_s
                                   << u"invalid arguments for edit_file: 'old_text' is required"_s;
    QTest::newRow("null required") << u"write_file"_s << u"{\"path\": null, \"content\": \"\"}"_s
                                   << u"invalid arguments for write_file: 'path' is required"_s;
    QTest::newRow("wrong type") << u"bash"_s << u"{\"command\": [\"ls\"]}"_s
                                << u"invalid arguments for bash: 'command' must be a string, got an array"_s;
    QTest::newRow("bool as string") << u"grep"_s << u"{\"pattern\": \"x\", \"ignore_case\": \"yes\"}"_s
                                    << u"invalid arguments for grep: 'ignore_case' must be a boolean, got a string"_s;
    QTest::newRow("object arguments") << u"read_file"_s << u"{\"path\": {\"p\": 1}}"_s
                                      << u"invalid arguments for read_file: 'path' must be a string, got an object"_s;
}

void TestToolRegistry::invalidArguments()
{
    QFETCH(QString, tool);
    QFETCH(QString, arguments);
    QFETCH(QString, message);
    const ToolResult result = test::runCall(*m_registry, m_context, tool, arguments);
    QVERIFY(result.isError);
    QVERIFY2(result.content.startsWith(message), qPrintable(result.content));
    const ToolRegistry::Prepared prepared = m_registry->prepare(ToolCall{u"c"_s, tool, arguments, false});
    QVERIFY(!prepared.ok());
    QCOMPARE(prepared.error, result.content);
}

void TestToolRegistry::approvalRequestForBadCall()
{
    const ApprovalRequest unknown = m_registry->approvalRequest(ToolCall{u"c"_s, u"nope"_s, u"{}"_s, true}, m_context);
    QVERIFY(unknown.problem.startsWith(u"unknown tool 'nope'"_s));
    const ApprovalRequest broken = m_registry->approvalRequest(ToolCall{u"c"_s, u"bash"_s, u"{"_s, false}, m_context);
    QCOMPARE(broken.toolName, u"bash"_s);
    QVERIFY(broken.problem.startsWith(u"invalid arguments for bash"_s));
}

void TestToolRegistry::addReplacesByName()
{
    m_registry->add(std::make_unique<EchoTool>(u"first"_s));
    QCOMPARE(m_registry->names().size(), 7); // the six file and shell tools and pin_fact
    QCOMPARE(test::runCall(*m_registry, m_context, u"read_file"_s, u"{}"_s).content, u"first"_s);
    m_registry->add(std::make_unique<EchoTool>(u"second"_s));
    QCOMPARE(test::runCall(*m_registry, m_context, u"read_file"_s, u"{}"_s).content, u"second"_s);
    QCOMPARE(m_registry->names().first(), u"read_file"_s);
}

void TestToolRegistry::noWorkspace()
{
    const ToolResult result = test::runCall(*m_registry, ToolContext{}, u"bash"_s, u"{\"command\": \"true\"}"_s);
    QVERIFY(result.isError);
    QCOMPARE(result.content, u"bash cannot run: the session has no workspace"_s);
}

void TestToolRegistry::immediateRunFinishesAfterStart()
{
    std::unique_ptr<ToolRun> run(ToolRun::withResult(u"x"_s, ToolResult::success(u"done"_s)));
    QVERIFY(!run->isFinished());
    QSignalSpy spy(run.get(), &ToolRun::finished);
    QVERIFY(spy.wait(1000));
    QCOMPARE(spy.size(), 1);
    QVERIFY(run->isFinished());
    QCOMPARE(run->result().content, u"done"_s);
    run->cancel();  // too late: nothing changes
    QCOMPARE(run->result().content, u"done"_s);
}

void TestToolRegistry::threadRunCancel()
{
    std::atomic_bool sawCancel = false;
    QSemaphore started;
    std::unique_ptr<ToolRun> run(ToolRun::inThread(u"slow"_s, [&](const std::atomic_bool &cancelled) {
        started.release();
        while (!cancelled)
            QThread::msleep(1);
        sawCancel = true;
        return ToolResult::success(u"late"_s);
    }));
    QSignalSpy spy(run.get(), &ToolRun::finished);
    QVERIFY(started.tryAcquire(1, 5000));
    run->cancel();
    QCOMPARE(spy.size(), 1);  // cancel finishes at once
    const ToolResult result = spy.first().first().value<ToolResult>();
    QVERIFY(result.isError);
    QCOMPARE(result.content, u"the slow call was cancelled by the user"_s);
    QTRY_VERIFY(sawCancel.load());
    QThreadPool::globalInstance()->waitForDone();
    QTest::qWait(10);
    QCOMPARE(spy.size(), 1);  // the worker's late result is dropped
}

void TestToolRegistry::threadRunDeletedWhileWorking()
{
    QSemaphore started;
    QSemaphore proceed;
    std::atomic_bool workerDone = false;
    auto *run = ToolRun::inThread(u"slow"_s, [&](const std::atomic_bool &cancelled) {
        started.release();
        proceed.acquire();
        workerDone = cancelled.load();  // the deletion reached the worker as a cancel
        return ToolResult::success(u"after delete"_s);
    });
    QVERIFY(started.tryAcquire(1, 5000));
    delete run;
    proceed.release();
    QThreadPool::globalInstance()->waitForDone();
    QTest::qWait(10);  // a delivery to the deleted run would crash here
    QVERIFY(workerDone.load());
}

QTEST_GUILESS_MAIN(TestToolRegistry)
#include "tst_toolregistry.moc"
