package io.pcapdiag.cli;

import io.pcapdiag.report.JsonSchemas;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code pcapdiag schema report|events|node-facts}: the JSON Schema (2020-12) of one of pcapdiag's JSON documents. */
@Command(name = "schema", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = {
            "Print the JSON Schema (2020-12) of analyze --format json (report), of each line of --format jsonl "
                + "(events) or of node-facts, every field described.",
            "The documents carry schema_version; it goes up when a key changes meaning or disappears, not for new "
                + "keys."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:printed",
            "2:usage error",
            ExitCodes.INTERNAL_HELP,
            "5:standard output failed (full, or the reader of a pipe went away)"})
public final class SchemaCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "DOCUMENT", arity = "1", completionCandidates = Documents.class,
            description = "report, events or node-facts.")
    String document;

    /** The names the parameter takes, for --help and completion. */
    static final class Documents implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return JsonSchemas.Document.ids().iterator();
        }
    }

    @Override
    public Integer call() {
        JsonSchemas.Document d = JsonSchemas.Document.of(document);
        if (d == null) {
            List<String> ids = JsonSchemas.Document.ids();
            throw new ParameterException(spec.commandLine(), "schema takes "
                    + String.join(", ", ids.subList(0, ids.size() - 1)) + " or " + ids.get(ids.size() - 1)
                    + ", not '" + document + "'");
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(JsonSchemas.standalone(d));
        out.flush();
        if (out.checkError()) {
            spec.commandLine().getErr().println("pcapdiag: " + ExitCodes.OUTPUT_FAILED);
            return ExitCodes.OUTPUT;
        }
        return ExitCodes.OK;
    }
}
