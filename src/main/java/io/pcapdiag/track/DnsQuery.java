package io.pcapdiag.track;

import java.util.Locale;

/**
 * What identifies a DNS query within its UDP exchange (docs/design.md, DNS): the transaction id and the question.
 *
 * @param id   the transaction id
 * @param name the question's name in presentation form ({@code web.default.svc.cluster.local}), or null when the
 *             message carried no question or the capture cut it
 * @param type the question's type (1 A, 28 AAAA), 0 when there is no question
 */
public record DnsQuery(int id, String name, int type) {
    /**
     * Whether a response with this id, question name and type answers the query. A response without a question
     * answers by its id alone (unbound's REFUSED carries none); names compare without case (RFC 4343).
     */
    boolean answeredBy(String responseName, int responseType) {
        return responseName == null || name == null || responseType == type && responseName.equalsIgnoreCase(name);
    }

    /** The question as dig and tcpdump write it: {@code A? web.default.svc.cluster.local} */
    public String question() {
        return typeName(type) + "? " + (name == null ? "(no question)" : name);
    }

    /** tcpdump's name of a query type: A, AAAA, ... or the number. */
    public static String typeName(int type) {
        return switch (type) {
            case 1 -> "A";
            case 2 -> "NS";
            case 5 -> "CNAME";
            case 6 -> "SOA";
            case 12 -> "PTR";
            case 15 -> "MX";
            case 16 -> "TXT";
            case 28 -> "AAAA";
            case 33 -> "SRV";
            case 65 -> "HTTPS";
            case 255 -> "ANY";
            default -> "Type" + type;
        };
    }

    /** The name lowercased, as the search-list comparison reads it; null stays null. */
    String lowerName() {
        return name == null ? null : name.toLowerCase(Locale.ROOT);
    }

    /** An rcode's name, as dig prints it (RFC 1035 4.1.1, RFC 6895 2.3). */
    public static String rcodeName(int rcode) {
        return switch (rcode) {
            case 0 -> "NOERROR";
            case 1 -> "FORMERR";
            case 2 -> "SERVFAIL";
            case 3 -> "NXDOMAIN";
            case 4 -> "NOTIMP";
            case 5 -> "REFUSED";
            case 6 -> "YXDOMAIN";
            case 7 -> "YXRRSET";
            case 8 -> "NXRRSET";
            case 9 -> "NOTAUTH";
            case 10 -> "NOTZONE";
            case 16 -> "BADVERS";
            case 23 -> "BADCOOKIE";
            default -> "RCODE" + rcode;
        };
    }
}
