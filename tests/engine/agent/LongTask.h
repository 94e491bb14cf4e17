#pragma once
// The long scripted task of tst_agentcompaction, for tests that need a real session that went
// through every tier (Warn, Soft, Full, Emergency) and through gate 1: six modules of source
// read in small and large steps with a 6,000-token window, LLM summaries from the fake server,
// one result above the tool-time threshold, then a read-back of an offloaded file.

#include "AgentHarness.h"

namespace wl::test::longtask {

inline const QString kCode = QStringLiteral("E2E-8371");

// About 3.5 KB of numbered source-like lines; module 1 holds the code to remember.
inline QByteArray moduleText(int n)
{
    QByteArray text;
    int line = 0;
    while (text.size() < 3500) {
        ++line;
        if (n == 1 && line == 7)
            text += "// retention marker: " + kCode.toUtf8() + "\n";
        else
            text += QByteArray("module") + QByteArray::number(n) + " line " + QByteArray::number(line)
                + ": int value_" + QByteArray::number(line) + " = compute(" + QByteArray::number(line * n) + ");\n";
    }
    return text;
}

inline QJsonObject readArgs(const QString &path, int offset = -1, int limit = -1)
{
    QJsonObject o{{QStringLiteral("path"), path}};
    if (offset >= 0)
        o.insert(QStringLiteral("offset"), offset);
    if (limit >= 0)
        o.insert(QStringLiteral("limit"), limit);
    return o;
}

inline QString firstSummary()
{
    return QStringLiteral(
        "## Anchors\n### User Intent\nReview the six modules and write a report\n### Execution Progress\n- read "
        "modules 1 and 2\n### Key Decisions\n- FIRST-DECISION: read with cat for speed\n### Tried Solutions\n- N/A\n"
        "### Next Steps\n- read the remaining modules\n## Summary\nFIRST-SUMMARY the review started.");
}

inline QString laterSummary()
{
    return QStringLiteral(
        "## Anchors\n### User Intent\n- N/A\n### Execution Progress\n- LATER-PROGRESS: modules 3 to 6 read\n"
        "### Key Decisions\nnone\n### Tried Solutions\n- N/A\n### Next Steps\n- write the report\n"
        "## Summary\nLATER-SUMMARY the review goes on.");
}

// The policy the task runs with.
inline CompactionPolicy policy()
{
    CompactionPolicy p;
    p.contextWindow = 6000;
    p.tailMessages = 2;
    p.summaryTimeoutMs = 5000;
    return p;
}

// Writes the modules, scripts the server and runs the task to its end; returns the final state.
inline AgentRun::State run(AgentHarness &h)
{
    for (int n = 1; n <= 6; ++n) {
        if (!writeFile(h.wsPath(QStringLiteral("src/module%1.txt").arg(n)), moduleText(n)))
            return AgentRun::State::Failed;
    }
    const QString offloadedPath = QStringLiteral(".waterline/tool_results/") + h.sessionId + QStringLiteral("/cat12.txt");
    h.server.addRule(summaryRule(firstSummary(), false)); // the first summary, once
    h.server.addRule(summaryRule(laterSummary()));        // every later one

    auto bash = [](const QString &id, const QString &command) {
        return callReply(id, QStringLiteral("bash"), {{QStringLiteral("command"), command}});
    };
    QList<FakeReply> script;
    script << bash(QStringLiteral("cat12"), QStringLiteral("cat src/module1.txt src/module2.txt"));
    int call = 0;
    auto read = [&](int module, int offset, int limit) {
        return callReply(QStringLiteral("r%1").arg(++call), QStringLiteral("read_file"),
                         readArgs(QStringLiteral("src/module%1.txt").arg(module), offset, limit));
    };
    script << read(3, 0, 1500) << read(3, 1500, 1500) << read(4, 0, 1500) << read(4, 1500, 1500);
    script << read(5, 0, 1500) << read(5, 1500, 1500) << read(6, 0, 1500);
    script << bash(QStringLiteral("cat56"), QStringLiteral("cat src/module5.txt src/module6.txt src/module4.txt | head -c 9000"));
    script << FakeReply::withToolCalls(
        {toolCall(QStringLiteral("e1"), QStringLiteral("read_file"), readArgs(QStringLiteral("src/module2.txt"))),
         toolCall(QStringLiteral("e2"), QStringLiteral("read_file"), readArgs(QStringLiteral("src/module3.txt"))),
         toolCall(QStringLiteral("e3"), QStringLiteral("read_file"), readArgs(QStringLiteral("src/module4.txt"))),
         toolCall(QStringLiteral("e4"), QStringLiteral("read_file"), readArgs(QStringLiteral("src/module5.txt"))),
         toolCall(QStringLiteral("e5"), QStringLiteral("bash"), {{QStringLiteral("command"), QStringLiteral("cat src/module6.txt src/module2.txt")}})});
    // Four modules at once: above the tool-time threshold (10,000 bytes), offloaded by gate 1.
    script << bash(QStringLiteral("big"), QStringLiteral("cat src/module3.txt src/module4.txt src/module5.txt src/module6.txt"));
    script << callReply(QStringLiteral("back"), QStringLiteral("read_file"), readArgs(offloadedPath));
    script << FakeReply::withText(QStringLiteral("Report: six modules reviewed; the retention marker is ") + kCode);
    for (const FakeReply &r : std::as_const(script))
        h.server.enqueue(r);

    AgentConfig config = h.config();
    config.summarizerModel = QStringLiteral("summary-model");
    AgentRun *agent = h.open(config);
    if (!agent->submit(QStringLiteral("Review the six modules in src/ and write a short report.")))
        return AgentRun::State::Failed;
    return h.settle(60000);
}

} // namespace wl::test::longtask
