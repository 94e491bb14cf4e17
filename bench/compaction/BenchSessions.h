#pragma once
// Realistic synthetic agent sessions for the compaction benchmarks.

#include "model/Message.h"

#include <QList>
#include <QString>

namespace wl::bench {

// `messages` messages in turns of user, assistant with a call, its result, assistant reply.
// Results are at most `maxResult` bytes; every message gets a store id and cached bytes.
inline QList<Message> agentSession(int messages, qsizetype maxResult = 3000, const QString &session = QStringLiteral("bench"))
{
    QList<Message> out;
    out.reserve(messages);
    qint64 id = 0;
    auto add = [&](Message m) {
        m.id = ++id;
        m.sessionId = session;
        m.cacheBytes();
        out.append(m);
    };
    const QString line = QStringLiteral("src/module/file.cpp:42: note: something the tool printed here\n");
    int turn = 0;
    while (out.size() < messages) {
        ++turn;
        add(Message::user(QStringLiteral("Turn %1: please fix the failing test in module %1 and explain.").arg(turn)));
        const QString callId = QStringLiteral("call_%1").arg(turn);
        add(Message::assistant(QStringLiteral("I'll run the tests first."),
                               {{callId, QStringLiteral("bash"), QStringLiteral(R"({"command":"make test MODULE=%1"})").arg(turn), true}}));
        const qsizetype size = 200 + (qsizetype(turn) * 7919) % std::max<qsizetype>(1, maxResult - 200);
        add(Message::toolResult(callId, line.repeated(size / line.size() + 1).left(size), turn % 5 == 0));
        add(Message::assistant(QStringLiteral("Fixed module %1: the loop bound was off by one. Next: run the full suite.").arg(turn)));
    }
    out.resize(messages);
    return out;
}

// Request boundaries: one request after every `step` messages.
inline QList<qsizetype> requestsEvery(qsizetype total, qsizetype step)
{
    QList<qsizetype> r;
    for (qsizetype n = step; n <= total; n += step)
        r.append(n);
    return r;
}

} // namespace wl::bench
