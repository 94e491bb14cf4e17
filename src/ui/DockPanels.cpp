#include "DockPanels.h"

#include <QCoreApplication>
#include <QLabel>
#include <QVBoxLayout>

namespace wl {

QList<DockPanel> dockPanels()
{
    auto tr = [](const char *s) { return QCoreApplication::translate("DockPanels", s); };
    return {
        {"SessionsDock", tr("Sessions"), tr("Your agent sessions: open one, or start a new one in a workspace folder.")},
        {"TimelineDock", tr("Timeline"), tr("Context utilisation per LLM request against the compaction thresholds.")},
        {"ThresholdsDock", tr("Thresholds"), tr("Tune the compaction policy and replay the session under it.")},
        {"AnchorsDock", tr("Anchors"), tr("The five anchors and how they merged across compactions.")},
        {"OffloadsDock", tr("Offloads"), tr("Tool results moved out of the context into files, with a viewer.")},
        {"ContextDock", tr("Context"), tr("What the model actually saw for the selected request, beside the full history.")},
        {"CompactionsDock", tr("Compactions"), tr("Every compaction record: tier, tokens before and after, summariser, errors.")},
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
