#pragma once

#include <QObject>
#include <QString>

class QLabel;
class QStatusBar;

namespace wl {

class AgentController;
class ContextGauge;

// The live agent's part of the window's status bar: a warning while commands run unsandboxed,
// the context gauge of the next request, the input tokens the provider reported last, the model
// and the provider's reachability. It follows the controller's statusChanged() on its own.
class AgentStatusBar : public QObject
{
    Q_OBJECT
public:
    // Adds its widgets to `bar` as permanent widgets (right-aligned); they belong to the bar.
    AgentStatusBar(AgentController *agent, QStatusBar *bar);

    ContextGauge *gauge() const { return m_gauge; }
    // What each part shows (empty: hidden or nothing to say).
    QString modelText() const;
    QString tokensText() const;
    QString sandboxNote() const;

    void update();

private:
    AgentController *m_agent;
    ContextGauge *m_gauge;
    QLabel *m_tokens;
    QLabel *m_model;
    QLabel *m_connection;
    QLabel *m_sandbox;
};

} // namespace wl
