// Shared by the replay benchmarks: corpus paths, the generated 200 MB transcript and the
// peak-memory probe.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

namespace wl::bench {

inline QString corpusFile(const char *relative)
{
    return QStringLiteral(WATERLINE_TEST_DATA "/replay/") + QString::fromUtf8(relative);
}

// A value of /proc/self/status in bytes (e.g. "VmHWM:"), -1 when unreadable.
inline qint64 statusValue(const char *key)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(key))
            return line.mid(qstrlen(key)).trimmed().split(' ').value(0).toLongLong() * 1024;
    }
    return -1;
}

// Resets VmHWM to the current resident size and returns it, so a later statusValue("VmHWM:")
// tells how far the peak rose since.
inline qint64 resetPeakMemory()
{
    QFile clear(QStringLiteral("/proc/self/clear_refs"));
    if (clear.open(QIODevice::WriteOnly))
        clear.write("5");
    clear.close();
    return statusValue("VmHWM:");
}

// The largest single message of the generated transcript.
inline constexpr double kGeneratedLargestMessageMB = 4.0;

// Writes 200 MB of OpenAI Chat JSONL to `path`: per turn a user line, an assistant call and a
// 20 KB tool result, every 500th result 4 MB. Returns the bytes written, -1 when it cannot write.
inline qint64 writeGenerated200MB(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return -1;
    const QByteArray body(20000, 'r');
    const QByteArray big(4 << 20, 'R');
    qint64 size = 0;
    for (qint64 turn = 0; size < 200ll * 1024 * 1024; ++turn) {
        const QByteArray id = "call_" + QByteArray::number(turn);
        size += file.write(R"({"role":"user","content":"step"})" "\n"
                           R"({"role":"assistant","content":"","tool_calls":[{"id":")" + id
                           + R"(","type":"function","function":{"name":"bash","arguments":"{}"}}]})" "\n"
                           R"({"role":"tool","tool_call_id":")" + id + R"(","content":")"
                           + (turn % 500 == 7 ? big : body) + "\"}\n");
    }
    return size;
}

} // namespace wl::bench
