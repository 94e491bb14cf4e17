#pragma once

#include "compaction/Summarizer.h"

#include <QList>
#include <QString>

namespace wl::test {

// A summariser for tests: canned answers, failures or silence, in script order, and a
// record of every prompt it received. Answers arrive from the event loop (as a network
// reply would), or before summarize() returns when synchronous.
class ScriptedSummarizer : public Summarizer
{
    Q_OBJECT
public:
    explicit ScriptedSummarizer(const QString &model = QStringLiteral("scripted-model"), QObject *parent = nullptr);

    struct Step
    {
        enum class Kind { Answer, Fail, Hang };
        Kind kind = Kind::Answer;
        QString text; // the answer, or the error
    };
    void addAnswer(const QString &text) { m_script.append({Step::Kind::Answer, text}); }
    void addFailure(const QString &error) { m_script.append({Step::Kind::Fail, error}); }
    void addHang() { m_script.append({Step::Kind::Hang, {}}); }
    // Used when the script is exhausted (default: a well-formed answer).
    void setDefaultStep(const Step &step) { m_default = step; }
    void setSynchronous(bool synchronous) { m_synchronous = synchronous; }

    struct Prompt
    {
        quint64 requestId = 0;
        QString system;
        QString user;
    };
    const QList<Prompt> &prompts() const { return m_prompts; }
    int callCount() const { return int(m_prompts.size()); }
    const QList<quint64> &cancelled() const { return m_cancelled; }

    void summarize(quint64 requestId, const QString &systemPrompt, const QString &userPrompt) override;
    void cancel(quint64 requestId) override;
    QString modelName() const override { return m_model; }

    // An answer in the shape the prompt asks for.
    static QString answer(const QString &intent, const QString &decisions, const QString &summary);

private:
    void deliver(quint64 requestId, const Step &step);

    QString m_model;
    QList<Step> m_script;
    Step m_default;
    bool m_synchronous = false;
    QList<Prompt> m_prompts;
    QList<quint64> m_cancelled;
};

} // namespace wl::test
