// The decisions panel: the decisions table with "this step / all steps",
// a verdict filter and a text filter; activating a row selects (and
// centres) its producer.
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "views/decisions/decisions_model.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace hloscope::views {

class DecisionsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DecisionsPanel(QWidget* parent = nullptr);

  void setSteps(std::vector<std::shared_ptr<const Step>> steps, int current);
  void setCurrentStep(int k);
  void setAllSteps(bool all);
  void setVerdictFilter(const QString& verdict);  // "" = all
  void setTextFilter(const QString& text);

  DecisionsModel* model() const { return model_; }
  DecisionsFilter* filter() const { return filter_; }
  QTableView* table() const { return table_; }
  int visibleRows() const;
  // Selects the visible row and emits producerSelected (tests, keyboard).
  void activateRow(int visible_row);

 signals:
  // The producer of the clicked decision, and its consumers.
  void producerSelected(qint64 producer, QList<qint64> consumers);

 private:
  void refresh();

  DecisionsModel* model_;
  DecisionsFilter* filter_;
  QCheckBox* all_steps_;
  QComboBox* verdict_;
  QLineEdit* text_;
  QLabel* count_;
  QTableView* table_;
  std::vector<std::shared_ptr<const Step>> steps_;
  int current_ = -1;
};

}  // namespace hloscope::views
