package io.github.volpex.examples.reproduce;

import io.github.volpex.examples.report.Chart;
import io.github.volpex.examples.report.Table;
import java.util.ArrayList;
import java.util.List;

/** What one experiment produced: its setting, tables, charts and findings (paper's claim against ours). */
final class Result {

    /** How a claim fared. */
    enum Verdict {
        REPRODUCED("reproduced"), PARTLY("partly reproduced"), NOT_REPRODUCED("not reproduced"),
        SKIPPED("skipped");

        private final String text;

        Verdict(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /** One claim of the paper, our figure for it, and the verdict. */
    record Finding(String claim, String paper, String ours, Verdict verdict) {
    }

    private final Experiment experiment;
    private final List<String> setting = new ArrayList<>();
    private final List<Table> tables = new ArrayList<>();
    private final List<Chart> charts = new ArrayList<>();
    private final List<Finding> findings = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private double wallSeconds;
    private long simulatedEvents;

    Result(Experiment experiment) {
        this.experiment = experiment;
    }

    Experiment experiment() {
        return experiment;
    }

    Result setting(String line) {
        setting.add(line);
        return this;
    }

    Result table(Table table) {
        tables.add(table);
        return this;
    }

    Result chart(Chart chart) {
        charts.add(chart);
        return this;
    }

    Result finding(String claim, String paper, String ours, Verdict verdict) {
        findings.add(new Finding(claim, paper, ours, verdict));
        return this;
    }

    Result note(String line) {
        notes.add(line);
        return this;
    }

    Result addEvents(long events) {
        simulatedEvents += events;
        return this;
    }

    void wallSeconds(double seconds) {
        wallSeconds = seconds;
    }

    List<String> setting() {
        return List.copyOf(setting);
    }

    List<Table> tables() {
        return List.copyOf(tables);
    }

    List<Chart> charts() {
        return List.copyOf(charts);
    }

    List<Finding> findings() {
        return List.copyOf(findings);
    }

    List<String> notes() {
        return List.copyOf(notes);
    }

    double wallSeconds() {
        return wallSeconds;
    }

    long simulatedEvents() {
        return simulatedEvents;
    }

    /** Returns the findings as a table. */
    Table findingsTable() {
        Table table = new Table(experiment.name() + ": the paper's claims against ours", "claim", "paper", "ours",
                "verdict");
        for (Finding f : findings) {
            table.row(f.claim(), f.paper(), f.ours(), f.verdict());
        }
        return table;
    }
}
