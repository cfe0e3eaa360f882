package io.pcapdiag.node;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The firewall rules that drop packets conntrack marks INVALID: kube-proxy's {@code -A KUBE-FORWARD -m conntrack
 * --ctstate INVALID -j DROP} (iptables mode), a CNI's or the distribution's own. Without one, a segment conntrack
 * cannot place (its entry flushed or out of window) is forwarded un-NATed and the client answers it with RST
 * (kubernetes #74839, #117924; docs/design.md, reset-after-reply). Read from {@code iptables-save} and {@code
 * ip6tables-save} (the filter table), from their {@code -legacy} variants where installed (rules in the legacy tables
 * are invisible to the nf_tables variant), and from {@code nft list ruleset} (native nftables, as kube-proxy's nftables
 * mode writes). A rule found in any of them answers; that there is none is known only when iptables-save,
 * ip6tables-save and nft (and the legacy variants that are installed) all ran.
 */
final class InvalidDrop {
    /** The tables iptables-nft keeps in nftables: iptables-save prints the ip family's, ip6tables-save the ip6's. */
    private static final Pattern XTABLES = Pattern.compile("(ip6?) (filter|nat|mangle|raw|security)");

    /** An nftables rule whose verdict map sends INVALID to drop ({@code ct state vmap { invalid : drop, ... }}). */
    private static final Pattern NFT_VMAP = Pattern.compile("\\bct state vmap \\{[^}]*\\binvalid\\s*:\\s*drop\\b");
    /** An nftables match on INVALID, alone or in a set ({@code ct state invalid}, {@code ct state { invalid, new }}). */
    private static final Pattern NFT_MATCH =
            Pattern.compile("\\bct state (?:\\{[^}]*\\binvalid\\b[^}]*\\}|[a-z,]*\\binvalid\\b)");
    private static final Pattern NFT_TABLE = Pattern.compile("^table (\\S+) (\\S+) \\{$");
    private static final Pattern NFT_COMMENT = Pattern.compile(" comment \"[^\"]*\"$");
    private static final Pattern NFT_CHAIN = Pattern.compile("^chain (\\S+) \\{$");

    /** An iptables-save to run: the nft family of the rules it prints, and whether "none" needs it read. */
    private record Save(String tool, String family, boolean required) {
    }

    /** The legacy variants are read where installed: a host may keep rules in the legacy tables as well. */
    private static final List<Save> SAVES = List.of(new Save("iptables-save", "ip", true),
            new Save("ip6tables-save", "ip6", true), new Save("iptables-legacy-save", "ip", false),
            new Save("ip6tables-legacy-save", "ip6", false));

    private InvalidDrop() {
    }

    /** The rules found with the tools on {@code path} (a PATH value), or why none can be said to be absent. */
    static OrUnknown<List<String>> read(String path) {
        List<String> rules = new ArrayList<>();
        List<String> unread = new ArrayList<>();
        // The families whose iptables-nft tables iptables-save or ip6tables-save (the nf_tables variant) printed.
        List<String> printed = new ArrayList<>();
        for (Save save : SAVES) {
            OrUnknown<Path> exe = Commands.onPath(save.tool(), path, null);
            if (!exe.isKnown()) {
                if (save.required()) {
                    unread.add(exe.reason());
                }
                continue;
            }
            OrUnknown<String> out = text(Commands.run(exe.value(), "-t", "filter"));
            if (out.isKnown()) {
                rules.addAll(iptables(save.tool(), out.value()));
                if (out.value().contains("(nf_tables)")) {
                    printed.add(save.family());
                }
            } else {
                unread.add(out.reason());
            }
        }
        OrUnknown<Path> nft = Commands.onPath("nft", path, "nftables");
        OrUnknown<String> ruleset = nft.isKnown() ? text(Commands.run(nft.value(), "list", "ruleset")) : nft.asUnknown();
        if (ruleset.isKnown()) {
            rules.addAll(nft(ruleset.value(), printed));
        } else {
            unread.add(ruleset.reason());
        }
        if (!rules.isEmpty() || unread.isEmpty()) {
            return OrUnknown.known(List.copyOf(rules));
        }
        return OrUnknown.unknown("no rule dropping INVALID in what was read; not read: " + String.join("; ", unread));
    }

    private static OrUnknown<String> text(OrUnknown<byte[]> out) {
        return out.map(b -> new String(b, StandardCharsets.UTF_8));
    }

    /**
     * The rules of {@code iptables-save} output that drop conntrack's INVALID ({@code -m conntrack --ctstate} or {@code -m
     * state --state}, INVALID in the list, not negated, jump to DROP), each as {@code TOOL: RULE}.
     */
    static List<String> iptables(String tool, String save) {
        List<String> found = new ArrayList<>();
        for (String line : save.split("\n")) {
            String rule = line.strip();
            if (!rule.startsWith("-A ")) {
                continue;
            }
            String[] t = rule.split("\\s+");
            boolean invalid = false;
            boolean drop = false;
            for (int i = 1; i + 1 < t.length; i++) {
                if ((t[i].equals("--ctstate") || t[i].equals("--state")) && !t[i - 1].equals("!")
                        && List.of(t[i + 1].split(",")).contains("INVALID")) {
                    invalid = true;
                }
                if ((t[i].equals("-j") || t[i].equals("--jump")) && t[i + 1].equals("DROP")) {
                    drop = true;
                }
            }
            if (invalid && drop) {
                found.add(tool + ": " + rule);
            }
        }
        return found;
    }

    /**
     * The rules of {@code nft list ruleset} output that drop conntrack's INVALID (a match on it and the verdict drop, or
     * a verdict map sending it to drop), each as {@code nft: table FAMILY NAME chain NAME: RULE}. The tables iptables-nft
     * manages in the families of {@code printed} (ip, ip6: iptables-save or ip6tables-save of the nf_tables variant
     * printed them) are left out: the same rules would be listed twice.
     */
    static List<String> nft(String ruleset, List<String> printed) {
        List<String> found = new ArrayList<>();
        String table = null;
        String chain = null;
        for (String line : ruleset.split("\n")) {
            String s = line.strip();
            Matcher m = NFT_TABLE.matcher(s);
            if (m.matches()) {
                table = m.group(1) + " " + m.group(2);
                chain = null;
                continue;
            }
            m = NFT_CHAIN.matcher(s);
            if (m.matches()) {
                chain = m.group(1);
                continue;
            }
            Matcher x = XTABLES.matcher(table == null ? "" : table);
            if (chain == null || x.matches() && printed.contains(x.group(1))) {
                continue;
            }
            // A negation ("ct state != invalid", "ct state ! invalid") does not match: invalid must follow "ct state ".
            // The verdict is the rule's last statement, before a comment.
            String verdict = NFT_COMMENT.matcher(s).replaceFirst("");
            boolean drops = NFT_VMAP.matcher(s).find() || NFT_MATCH.matcher(s).find() && verdict.endsWith(" drop");
            if (drops) {
                found.add("nft: table " + table + " chain " + chain + ": " + s);
            }
        }
        return found;
    }
}
