#include "AgentStatusBar.h"

#include "AgentController.h"
#include "ContextGauge.h"
#include "LoadedSession.h"
#include "TierStyle.h"
#include "compaction/TokenEstimate.h"
#include "whatif/RecordedTotals.h"

#include <QLabel>
#include <QLocale>
#include <QStatusBar>

using namespace Qt::StringLiterals;

namespace wl {

AgentStatusBar::AgentStatusBar(AgentController *agent, QStatusBar *bar)
    : QObject(bar)
    , m_agent(agent)
    , m_gauge(new ContextGauge(bar))
    , m_tokens(new QLabel(bar))
    , m_model(new QLabel(bar))
    , m_connection(new QLabel(bar))
    , m_sandbox(new QLabel(bar))
{
    m_tokens->setObjectName(u"StatusTokens"_s);
    m_model->setObjectName(u"StatusModel"_s);
    m_connection->setObjectName(u"StatusConnection"_s);
    m_sandbox->setObjectName(u"StatusSandbox"_s);
    m_sandbox->hide();
    bar->addPermanentWidget(m_sandbox);
    bar->addPermanentWidget(m_gauge);
    bar->addPermanentWidget(m_tokens);
    bar->addPermanentWidget(m_model);
    bar->addPermanentWidget(m_connection);
    connect(m_agent, &AgentController::statusChanged, this, &AgentStatusBar::update);
    update();
}

QString AgentStatusBar::modelText() const
{
    return m_model->text();
}

QString AgentStatusBar::tokensText() const
{
    return m_tokens->text();
}

QString AgentStatusBar::sandboxNote() const
{
    return m_sandbox->isHidden() ? QString() : m_sandbox->toolTip();
}

void AgentStatusBar::setSession(const LoadedSession &session)
{
    const CompactionPolicy &policy = session.policy;
    m_sessionWindow = session.isEmpty() ? 0 : std::max<qint64>(0, policy.contextWindow);
    m_recordedTokens = 0;
    if (!session.requests.isEmpty())
        m_recordedTokens = RecordedTotals::sentTokens(session.requests.constLast(), policy, session.replay.overheadAt(session.requests.size() - 1))
            + policy.reservedOutput;
    m_recordedRatio = TokenEstimate::ratioFor(m_recordedTokens, m_sessionWindow);
    m_recordedTier = session.requests.isEmpty() ? Tier::None : policy.tierFor(m_recordedRatio);
    m_recordedComposition = session.compositions.size() == session.requests.size() && !session.compositions.isEmpty()
        ? session.compositions.constLast() : ViewComposition();
    update();
}

void AgentStatusBar::update()
{
    const QLocale locale;
    if (m_agent->isOpen())
        m_gauge->setValue(m_agent->utilisation(), m_agent->tier(), m_agent->estimatedTokens(), m_agent->contextWindow(),
                          ContextGauge::Source::NextRequest, m_agent->nextRequestComposition());
    else if (m_sessionWindow > 0)
        m_gauge->setValue(m_recordedRatio, m_recordedTier, m_recordedTokens, m_sessionWindow, ContextGauge::Source::LastRecorded,
                          m_recordedComposition);
    else
        m_gauge->setValue(0, Tier::None, 0, 0);
    const qint64 input = m_agent->lastInputTokens();
    m_tokens->setText(input >= 0 ? tr("last request: %1 input tokens").arg(locale.toString(input)) : QString());
    m_tokens->setToolTip(tr("Input tokens the provider reported for the last request"));
    const ProviderProfile profile = m_agent->profile();
    m_model->setText(profile.model.isEmpty() ? tr("no model") : profile.model);
    const QString note = m_agent->profileNote();
    m_model->setToolTip(note.isEmpty() ? tr("%1 at %2").arg(profile.name, profile.baseUrl.toString())
                                       : tr("%1 at %2\n%3").arg(profile.name, profile.baseUrl.toString(), note));
    const AgentController::Connection c = m_agent->connection();
    QColor dot = m_connection->palette().color(QPalette::Mid);
    switch (c) {
    case AgentController::Connection::Reachable: dot = QColor(0x38, 0xa1, 0x69); break;
    case AgentController::Connection::Streaming: dot = QColor(0x31, 0x82, 0xce); break;
    case AgentController::Connection::Retrying: dot = tierColor(Tier::Warn); break;
    case AgentController::Connection::Unreachable: dot = tierColor(Tier::Full); break;
    case AgentController::Connection::Unknown:
    case AgentController::Connection::Checking: break;
    }
    m_connection->setText(u"<span style=\"color:%1\">\u25cf</span> %2"_s.arg(dot.name(), AgentController::connectionLabel(c).toHtmlEscaped()));
    m_connection->setToolTip(m_agent->connectionError());
    const QString unsandboxed = m_agent->unsandboxedNote();
    m_sandbox->setText(unsandboxed.isEmpty()
                           ? QString()
                           : u"<span style=\"color:%1\">\u26a0</span> %2"_s.arg(tierColor(Tier::Full).name(),
                                                                                tr("Unsandboxed commands").toHtmlEscaped()));
    m_sandbox->setToolTip(unsandboxed);
    m_sandbox->setVisible(!unsandboxed.isEmpty());
}

} // namespace wl
