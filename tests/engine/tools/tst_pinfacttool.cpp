// pin_fact's arguments come from the model: hostile ones never reach the pin callback.
#include "ToolTestHelpers.h"

#include "tools/PinFactTool.h"
#include "tools/ToolRegistry.h"
#include "tools/Workspace.h"

#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

class TestPinFactTool : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<Workspace> m_workspace;

    // A call runs against a workspace like every tool's; pin_fact touches no file of it.
    ToolContext workspaceContext()
    {
        if (!m_workspace)
            m_workspace = std::make_unique<Workspace>(m_dir.path());
        return ToolContext{m_workspace.get(), u"s1"_s, u"call-1"_s};
    }

private Q_SLOTS:
    void hostileArguments_data();
    void hostileArguments();
    void pinsThroughTheContext();
    void refusalReachesTheModel();
    void withoutASessionItSaysSo();
    void asksLikeAWrite();
};

void TestPinFactTool::hostileArguments_data()
{
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("problem");
    QTest::newRow("no text") << u"{\"reason\":\"r\"}"_s << u"invalid arguments"_s;
    QTest::newRow("text not a string") << u"{\"text\":{\"a\":1},\"reason\":\"r\"}"_s << u"invalid arguments"_s;
    QTest::newRow("blank text") << u"{\"text\":\" \\n \",\"reason\":\"r\"}"_s << u"empty"_s;
    QTest::newRow("too long") << u"{\"text\":\"%1\",\"reason\":\"r\"}"_s.arg(QString(PinFactTool::kMaxTextChars + 1, u'x'))
                              << u"at most"_s;
    QTest::newRow("not JSON") << u"{text: 1"_s << u"invalid arguments"_s;
}

void TestPinFactTool::hostileArguments()
{
    QFETCH(QString, arguments);
    QFETCH(QString, problem);
    ToolRegistry registry;
    registry.add(std::make_unique<PinFactTool>());
    int calls = 0;
    ToolContext context = workspaceContext();
    context.pinFact = [&calls](const QString &, const QString &) {
        ++calls;
        return QString();
    };
    const ToolResult result = test::runCall(registry, context, u"pin_fact"_s, arguments);
    QVERIFY(result.isError);
    QVERIFY2(result.content.contains(problem), qPrintable(result.content));
    QCOMPARE(calls, 0);
}

void TestPinFactTool::pinsThroughTheContext()
{
    ToolRegistry registry;
    registry.add(std::make_unique<PinFactTool>());
    QStringList seen;
    ToolContext context = workspaceContext();
    context.pinFact = [&seen](const QString &text, const QString &reason) {
        seen << text << reason;
        return QString();
    };
    const ToolResult result = test::runCall(registry, context, u"pin_fact"_s,
                                            QJsonObject{{u"text"_s, u"use tabs"_s}, {u"reason"_s, u"told so"_s}});
    QVERIFY(!result.isError);
    QCOMPARE(seen, (QStringList{u"use tabs"_s, u"told so"_s}));
}

void TestPinFactTool::refusalReachesTheModel()
{
    ToolRegistry registry;
    registry.add(std::make_unique<PinFactTool>());
    ToolContext context = workspaceContext();
    context.pinFact = [](const QString &, const QString &) { return u"Not pinned: 40 more than the budget"_s; };
    const ToolResult result = test::runCall(registry, context, u"pin_fact"_s,
                                            QJsonObject{{u"text"_s, u"x"_s}, {u"reason"_s, u"r"_s}});
    QVERIFY(result.isError);
    QCOMPARE(result.content, u"Not pinned: 40 more than the budget"_s);
}

void TestPinFactTool::withoutASessionItSaysSo()
{
    ToolRegistry registry;
    registry.add(std::make_unique<PinFactTool>());
    const ToolResult result = test::runCall(registry, workspaceContext(), u"pin_fact"_s,
                                            QJsonObject{{u"text"_s, u"x"_s}, {u"reason"_s, u"r"_s}});
    QVERIFY(result.isError);
    QVERIFY(result.content.contains(u"cannot pin"_s));
}

void TestPinFactTool::asksLikeAWrite()
{
    PinFactTool tool;
    QCOMPARE(tool.approvalKind(), ApprovalKind::Write);
    const ApprovalRequest request = tool.approvalRequest(QJsonObject{{u"text"_s, u"keep the API"_s}, {u"reason"_s, u"r"_s}}, ToolContext{});
    QVERIFY(request.summary.contains(u"keep the API"_s));
    QVERIFY(request.problem.isEmpty());
    QVERIFY(ToolRegistry::createDefault()->tool(u"pin_fact"_s));
}

QTEST_GUILESS_MAIN(TestPinFactTool)
#include "tst_pinfacttool.moc"
