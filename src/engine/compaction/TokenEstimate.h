#pragma once

#include <QList>
#include <QStringView>

namespace wl {

struct CompactionPolicy;
struct Message;
struct ToolSpec;

// The token estimate of docs/COMPACTION.md section 2: UTF-8 bytes, divided by four once at the end.
//
// A TokenEstimate is the handful of numbers a tier decision needs. The view's byte
// sum comes from ContextView, which keeps it incrementally as messages are
// appended, so a turn costs O(changed messages) rather than a rescan.
class TokenEstimate
{
public:
    TokenEstimate() = default;
    // The estimate of one request (the one rule the preflight, the replay and the status bar use):
    // its view, the tool schemas offered with it (when the policy counts them), a fixed overhead the
    // transcript did not store (tokens; imports only, see ReplayInput) and the reserved output.
    // `tokenScale` is the calibration of the view's count against the provider's (imports: fitted
    // on the requests it reported, ReplayInput::fitTokenScale; 1 elsewhere): it multiplies the
    // view's bytes / 4, and the overhead is added after it.
    TokenEstimate(qint64 viewBytes, qint64 toolSchemaBytes, const CompactionPolicy &policy, qint64 overheadTokens = 0,
                  double tokenScale = 1.0);

    qint64 viewTokens() const { return scaled(tokensForBytes(m_viewBytes)); }
    // `tokens` of the view's rule (bytes / 4) as this estimate counts them.
    qint64 scaled(qint64 tokens) const { return scaledBy(tokens, m_scale); }
    // `tokens` of the rule under calibration `scale` (rounded to the nearest token): the one place it is applied.
    static qint64 scaledBy(qint64 tokens, double scale) { return scale == 1.0 ? tokens : qint64(double(tokens) * scale + 0.5); }
    // The most view bytes whose viewTokens() is at most `tokens` (-1 when `tokens` is negative).
    qint64 maxViewBytesFor(qint64 tokens) const;
    double tokenScale() const { return m_scale; }
    qint64 toolSchemaTokens() const { return m_countSchemas ? tokensForBytes(m_schemaBytes) : 0; }
    qint64 overheadTokens() const { return m_overhead; }
    qint64 reservedOutput() const { return m_reserved; }
    qint64 contextWindow() const { return m_window; }
    qint64 totalTokens() const { return viewTokens() + toolSchemaTokens() + m_overhead + m_reserved; }
    // (view + schemas (if counted) + overhead + reserved) / window; 0 when the window is not positive.
    double ratio() const;

    // The rule of docs/COMPACTION.md section 2, and the only place that divides by four.
    static constexpr qint64 kBytesPerToken = 4;
    static qint64 tokensForBytes(qint64 bytes) { return bytes / kBytesPerToken; }
    // The fewest bytes tokensForBytes() counts as `tokens` (a text made to weigh that much).
    static qint64 bytesForTokens(qint64 tokens) { return tokens * kBytesPerToken; }
    static qint64 utf8Bytes(QStringView text);
    static qint64 messageBytes(const QList<Message> &messages);  // uses each message's cached bytes
    static qint64 estimateTokens(const QList<Message> &messages) { return tokensForBytes(messageBytes(messages)); }
    static qint64 toolSchemaBytes(const QList<ToolSpec> &tools);
    static double ratioFor(qint64 totalTokens, qint64 contextWindow);

private:
    qint64 m_viewBytes = 0;
    qint64 m_schemaBytes = 0;
    qint64 m_overhead = 0;
    qint64 m_reserved = 0;
    qint64 m_window = 0;
    double m_scale = 1.0;
    bool m_countSchemas = true;
};

} // namespace wl
