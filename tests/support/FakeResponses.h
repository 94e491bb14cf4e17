#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace wl::test {

struct FakeReply;

// The OpenAI Responses API as FakeLlmServer speaks it (POST /v1/responses): the semantic events
// of a stream and the whole response object, shaped like the real captures in
// tests/data/llm/sse/openai-responses (an `event:` line per event, a `sequence_number` in every
// payload, no [DONE], usage with cached tokens only in response.completed).
namespace FakeResponses {

// One SSE event per element: response.created, response.in_progress, then per output item
// (reasoning summary, message text, each function call) its added / delta / done events, then
// response.completed.
QList<QByteArray> render(const FakeReply &reply, const QString &model);
// The response object of a request that did not ask to stream.
QByteArray whole(const FakeReply &reply, const QString &model);
// An in-band failure after a 200, as the API sends it: an `error` event then response.failed.
QList<QByteArray> failure(const QString &errorType, int sequenceNumber);

} // namespace FakeResponses
} // namespace wl::test
