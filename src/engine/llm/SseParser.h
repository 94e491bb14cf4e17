#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <functional>

namespace wl {

// One server-sent event. The views point into the parser's buffers (or the
// chunk being fed) and are valid only during the handler call.
struct SseEvent
{
    QByteArrayView type;   // the `event:` field; empty means the default type "message"
    QByteArrayView data;   // `data:` lines joined with '\n'
    QByteArrayView id;     // the last `id:` seen so far (it persists across events)
};

// Incremental parser for the text/event-stream format (WHATWG HTML, "Server-sent
// events", section 9.2.6). Fed raw bytes exactly as they arrive from readyRead:
// a chunk may end anywhere (between \r and \n, inside a UTF-8 sequence, inside
// a JSON value). Lines may end in CR, LF or CRLF; comments, multi-line data and
// the event, id and retry fields are understood; unknown fields are ignored.
// Works on bytes only: the data is decoded (as JSON) by the caller.
//
// Steady state allocates nothing per event: buffers are reused, and a single
// `data:` line that lies inside the fed chunk is handed out without a copy.
class SseParser
{
public:
    using Handler = std::function<void(const SseEvent &)>;

    explicit SseParser(Handler handler = {});

    void setHandler(Handler handler) { m_handler = std::move(handler); }

    // Parses `chunk`, calling the handler for every event it completes.
    void feed(QByteArrayView chunk);

    // End of stream. The SSE spec discards an event without its final blank
    // line; several real servers end the stream right after the last data
    // line, so finish() dispatches such a pending event (a truncated one fails
    // later as malformed JSON). Returns true if it dispatched one.
    bool finish();

    // Clears all state (for a new stream), keeping the handler and capacities.
    void reset();

    // A single event larger than this makes the parser stop with an error:
    // a hostile or broken server must not exhaust memory.
    void setMaxEventBytes(qsizetype bytes) { m_maxEventBytes = bytes; }
    bool hasError() const { return m_error; }

    QByteArray lastEventId() const { return m_lastId; }
    int retryMs() const { return m_retryMs; }   // -1 until the server sends `retry:`
    qint64 eventCount() const { return m_eventCount; }

private:
    void processLine(QByteArrayView line, bool inChunk);
    void dispatch();
    void materializeData();

    Handler m_handler;
    QByteArray m_partialLine;     // an incomplete line carried over between chunks
    QByteArray m_data;            // data buffer when it had to be copied
    QByteArrayView m_dataView;    // single data line still inside the current chunk
    QByteArray m_type;
    QByteArray m_lastId;
    qsizetype m_maxEventBytes = 64 * 1024 * 1024;
    qint64 m_eventCount = 0;
    int m_retryMs = -1;
    bool m_hasData = false;       // a data: line was seen in this event
    bool m_dataInView = false;    // the data is m_dataView, not m_data
    bool m_skipLf = false;        // the previous chunk ended in CR: a leading LF belongs to it
    bool m_atStart = true;        // a UTF-8 BOM is skipped at the very start
    bool m_error = false;
};

} // namespace wl
