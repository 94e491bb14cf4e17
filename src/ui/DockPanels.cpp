#include "DockPanels.h"

#include <QCoreApplication>
#include <QLabel>
#include <QVBoxLayout>

namespace wl {

QList<DockPanel> dockPanels()
{
    return {
        {"SessionsDock", QCoreApplication::translate("DockPanels", "Sessions"), QCoreApplication::translate("DockPanels", "Your agent sessions: open one, or start a new one in a workspace folder.")},
        {"TimelineDock", QCoreApplication::translate("DockPanels", "Timeline"), QCoreApplication::translate("DockPanels", "Context utilisation per LLM request against the compaction thresholds.")},
        {"ThresholdsDock", QCoreApplication::translate("DockPanels", "Thresholds"), QCoreApplication::translate("DockPanels", "Tune the compaction policy and replay the session under it.")},
        {"AnchorsDock", QCoreApplication::translate("DockPanels", "Anchors"), QCoreApplication::translate("DockPanels", "The five anchors and how they merged across compactions.")},
        {"OffloadsDock", QCoreApplication::translate("DockPanels", "Offloads"), QCoreApplication::translate("DockPanels", "Tool results moved out of the context into files, with a viewer.")},
        {"ContextDock", QCoreApplication::translate("DockPanels", "Context"), QCoreApplication::translate("DockPanels", "What the model actually saw for the selected request, beside the full history.")},
        {"CompactionsDock", QCoreApplication::translate("DockPanels", "Compactions"), QCoreApplication::translate("DockPanels", "Every compaction record: tier, tokens before and after, summariser, errors.")},
        {"ProxyDock", QCoreApplication::translate("DockPanels", "Proxy"), QCoreApplication::translate("DockPanels", "A local proxy to point any agent at: its address, the settings to paste and the requests that pass.")},
    };
}

QWidget *makeExplanationPanel(const QString &text, QWidget *parent)
{
    auto *panel = new QWidget(parent);
    auto *layout = new QVBoxLayout(panel);
    auto *label = new QLabel(text, panel);
    label->setWordWrap(true);
    label->setAlignment(Qt::AlignCenter);
    label->setEnabled(false);
    layout->addWidget(label);
    return panel;
}

} // namespace wl
