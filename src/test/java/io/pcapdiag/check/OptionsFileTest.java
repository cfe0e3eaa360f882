package io.pcapdiag.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pcapdiag.cli.AnalyzeCommand;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

class OptionsFileTest {
    /**
     * What the options file takes for an option's value is what picocli takes for it: the options of analyze that
     * take one are those of its model whose arity asks for one, and the others are the flags check knows.
     */
    @Test
    void theOptionsWithAValueAreAnalyzesOwn() {
        Set<String> valued = new TreeSet<>();
        Set<String> flags = new TreeSet<>();
        for (OptionSpec o : new CommandLine(new AnalyzeCommand()).getCommandSpec().options()) {
            (o.arity().min() > 0 ? valued : flags).addAll(Set.of(o.names()));
        }
        assertEquals(new TreeSet<>(OptionsFile.VALUED), valued);
        assertEquals(Set.of("-v", "--verbose", "-h", "--help", "-V", "--version"), flags);
    }
}
