package io.github.volpex.examples.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.volpex.examples.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReproduceCommandTest {

    @TempDir
    Path dir;

    @Test
    void a_quick_run_prints_its_tables_and_writes_charts_and_the_report() throws Exception {
        ReproduceCommand command = new ReproduceCommand();
        Cli.of(command).parseArgs("kanna", "--quick", "--out", dir.toString(), "--threads", "1");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status = command.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, out);
        assertTrue(out.contains("[kanna]"), "progress names the experiment: " + out);
        assertTrue(out.contains("Fig. 2/3 (put)"), out);
        String index = Files.readString(dir.resolve("index.html"));
        for (String chart : List.of("put-rtt", "put-bandwidth", "get-rtt", "get-bandwidth")) {
            assertTrue(Files.size(dir.resolve("kanna/" + chart + ".png")) > 1000, chart);
            assertTrue(Files.readString(dir.resolve("kanna/" + chart + ".svg")).contains("</svg>"), chart);
            assertTrue(index.contains("kanna/" + chart + ".svg"), "index links " + chart);
        }
        assertTrue(Files.readString(dir.resolve("kanna/tables.txt")).contains("the paper's claims"));
    }

    @Test
    void every_experiment_is_a_choice_and_runs_the_same_twice_with_one_seed() throws Exception {
        List<String> names = ReproduceCommand.experiments().stream().map(Experiment::name).toList();
        assertEquals(List.of("ni-harwood", "ren", "de-camargo", "rahman-subhlok", "kanna"), names);
        Setup setup = new Setup(42, true, 2, dir.resolve("no-traces"));
        Experiment experiment = new RahmanSubhlokExperiment();
        String first = Report.text(experiment.run(setup, Progress.silent()));
        String second = Report.text(new RahmanSubhlokExperiment().run(new Setup(42, true, 1, dir),
                Progress.silent()));
        assertEquals(first, second, "results depend on the seed only, not on the number of threads");
    }

    @Test
    void a_missing_trace_is_skipped_with_a_message_naming_where_it_was_looked_for() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Progress progress = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        progress.startExperiment("ren", 0, 0);
        Result result = new RenExperiment().run(new Setup(1, true, 2, dir.resolve("absent")), progress);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("microsoft99 trace not found at " + dir.resolve("absent")), out);
        assertTrue(result.findings().stream().anyMatch(f -> f.verdict() == Result.Verdict.SKIPPED));
    }
}
