#pragma once

#include "compaction/ViewComposition.h"

#include "compaction/Tier.h"

#include <QObject>
#include <QString>

class QLabel;
class QStatusBar;

namespace wl {

class AgentController;
class ContextGauge;
struct LoadedSession;

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

    // The open session as the docks loaded it: while no agent runs on it, the gauge shows its last
    // recorded request against the session's window (the window of the Thresholds dock).
    void setSession(const LoadedSession &session);

    void update();

private:
    AgentController *m_agent;
    ContextGauge *m_gauge;
    QLabel *m_tokens;
    QLabel *m_model;
    QLabel *m_connection;
    QLabel *m_sandbox;
    // The loaded session's last recorded request, for the gauge while no agent runs on it (empty:
    // no session loaded, or it recorded no request).
    ViewComposition m_recordedComposition;
    Tier m_recordedTier = Tier::None;
};

} // namespace wl
