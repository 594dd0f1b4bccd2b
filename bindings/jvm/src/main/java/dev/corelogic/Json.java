package dev.corelogic;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The small JSON reader and writer the binding uses (the JDK has none), public because
 * hosts need one for events and states too.
 *
 * <p>Values are plain Java objects: {@code null}, {@link Boolean}, {@link String},
 * {@link Long} (integers that fit), {@link BigInteger} (larger integers), {@link Double}
 * (numbers with a fraction or exponent), {@link List} and {@link Map} (insertion-ordered,
 * so a state's members keep the library's order). {@link #write} takes those, any other
 * {@link Number}, arrays of objects, and {@link Raw} for JSON text written as it is.
 * Parsing is strict RFC 8259; errors throw {@link JsonException}.
 */
public final class Json {
    private Json() {}

    /** JSON text, written as it is by {@link #write} (and sent byte for byte as an event). */
    public record Raw(String text) {
        public Raw {
            if (text == null) throw new ArgumentException("Json.Raw needs JSON text, not null");
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /** Wraps JSON text so that {@link #write} and the event methods pass it through unchanged. */
    public static Raw raw(String text) {
        return new Raw(text);
    }

    // -- reading ---------------------------------------------------------------------

    /**
     * Parses one JSON text. Like the library's own parser it rejects duplicate member
     * names and escapes of unpaired surrogates (which no UTF-8 text can hold).
     */
    public static Object parse(String text) {
        return parse(text, MAX_DEPTH, false);
    }

    /**
     * Parses with the limits of the C examples' reader (Examples/c/json.c), which the
     * golden runners share: nesting at most {@code maxDepth} containers deep and, when
     * {@code noNulKeys}, no member name containing U+0000.
     */
    static Object parse(String text, int maxDepth, boolean noNulKeys) {
        if (text == null) throw new ArgumentException("Json.parse: null text");
        Parser parser = new Parser(text, maxDepth, noNulKeys);
        parser.skipSpace();
        Object value = parser.value(0);
        parser.skipSpace();
        if (parser.at < text.length()) throw parser.error("trailing characters after the JSON value");
        return value;
    }

    private static final int MAX_DEPTH = 512;

    /** The words of the library's batches ({@link Parser#plain}). */
    private static final String[] WORDS = {
        "state", "effects", "steps", "revision", "base", "patch", "op", "path", "value", "replace", "add",
        "remove", "queries", "dropped", "start", "cancel", "id", "feedback", "request",
    };
    private static final int LONGEST_WORD = 8;

    private static final class Parser {
        final String s;
        final int maxDepth;
        final boolean noNulKeys;
        int at;

        Parser(String s, int maxDepth, boolean noNulKeys) {
            this.s = s;
            this.maxDepth = maxDepth;
            this.noNulKeys = noNulKeys;
        }

        JsonException error(String what) {
            return new JsonException("Json.parse: " + what + " at offset " + at);
        }

        void skipSpace() {
            while (at < s.length()) {
                char c = s.charAt(at);
                if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
                at++;
            }
        }

        Object value(int depth) {
            if (at >= s.length()) throw error("unexpected end of input");
            char c = s.charAt(at);
            if ((c == '{' || c == '[') && depth + 1 > maxDepth) throw error("nesting deeper than " + maxDepth + " levels");
            switch (c) {
                case '{': return object(depth);
                case '[': return array(depth);
                case '"': return string();
                case 't': return literal("true", Boolean.TRUE);
                case 'f': return literal("false", Boolean.FALSE);
                case 'n': return literal("null", null);
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) return number();
                    throw error("unexpected character '" + c + "'");
            }
        }

        Object literal(String word, Object value) {
            if (!s.startsWith(word, at)) throw error("invalid literal");
            at += word.length();
            return value;
        }

        Map<String, Object> object(int depth) {
            at++;
            Map<String, Object> map = new LinkedHashMap<>();
            skipSpace();
            if (at < s.length() && s.charAt(at) == '}') {
                at++;
                return map;
            }
            while (true) {
                skipSpace();
                if (at >= s.length() || s.charAt(at) != '"') throw error("expected a member name");
                int keyAt = at;
                String key = string();
                if (noNulKeys && key.indexOf('\0') >= 0) {
                    at = keyAt;
                    throw error("object key containing U+0000");
                }
                if (map.containsKey(key)) {
                    at = keyAt;
                    throw error("duplicate key \"" + key + "\"");
                }
                skipSpace();
                if (at >= s.length() || s.charAt(at) != ':') throw error("expected ':'");
                at++;
                skipSpace();
                Object value = value(depth + 1);
                map.put(key, value);
                skipSpace();
                if (at >= s.length()) throw error("unexpected end of input in an object");
                char c = s.charAt(at++);
                if (c == '}') return map;
                if (c != ',') throw error("expected ',' or '}'");
            }
        }

        List<Object> array(int depth) {
            at++;
            List<Object> list = new ArrayList<>();
            skipSpace();
            if (at < s.length() && s.charAt(at) == ']') {
                at++;
                return list;
            }
            while (true) {
                skipSpace();
                list.add(value(depth + 1));
                skipSpace();
                if (at >= s.length()) throw error("unexpected end of input in an array");
                char c = s.charAt(at++);
                if (c == ']') return list;
                if (c != ',') throw error("expected ',' or ']'");
            }
        }

        String string() {
            at++; // the opening quote
            StringBuilder out = null;
            int start = at;
            while (true) {
                if (at >= s.length()) throw error("unterminated string");
                char c = s.charAt(at);
                if (c == '"') {
                    String text = out == null ? plain(start, at) : out.append(s, start, at).toString();
                    at++;
                    return text;
                }
                if (c < 0x20) throw error("control character in a string");
                if (c != '\\') {
                    at++;
                    continue;
                }
                if (out == null) out = new StringBuilder();
                out.append(s, start, at);
                at++;
                if (at >= s.length()) throw error("unterminated escape");
                char e = s.charAt(at++);
                switch (e) {
                    case '"': out.append('"'); break;
                    case '\\': out.append('\\'); break;
                    case '/': out.append('/'); break;
                    case 'b': out.append('\b'); break;
                    case 'f': out.append('\f'); break;
                    case 'n': out.append('\n'); break;
                    case 'r': out.append('\r'); break;
                    case 't': out.append('\t'); break;
                    case 'u':
                        int code = hex4(at);
                        at += 4;
                        if (Character.isHighSurrogate((char) code)) {
                            if (!s.startsWith("\\u", at)) throw error("unpaired high surrogate escape");
                            int low = hex4(at + 2);
                            if (!Character.isLowSurrogate((char) low)) throw error("unpaired high surrogate escape");
                            out.append((char) code).append((char) low);
                            at += 6;
                        } else if (Character.isLowSurrogate((char) code)) {
                            throw error("unpaired low surrogate escape");
                        } else {
                            out.append((char) code);
                        }
                        break;
                    default:
                        throw error("bad escape '\\" + e + "'");
                }
                start = at;
            }
        }

        /**
         * The text of a string without escapes: one of the batch's own words (member names
         * and patch operations, which every batch repeats) as a shared constant, whose hash
         * is computed once; anything else as a new string.
         */
        String plain(int start, int end) {
            int length = end - start;
            if (length <= LONGEST_WORD) {
                for (String word : WORDS) {
                    if (word.length() == length && s.regionMatches(start, word, 0, length)) return word;
                }
            }
            return s.substring(start, end);
        }

        /** The four hex digits of a \\u escape at offset i. */
        int hex4(int i) {
            if (i + 4 > s.length()) throw error("truncated \\u escape");
            int code = 0;
            for (int k = 0; k < 4; k++) {
                char c = s.charAt(i + k);
                int digit = c < 128 ? Character.digit(c, 16) : -1;
                if (digit < 0) throw error("invalid hex digit in \\u escape");
                code = code * 16 + digit;
            }
            return code;
        }

        Object number() {
            int start = at;
            if (s.charAt(at) == '-') at++;
            if (at >= s.length()) throw error("bad number");
            if (s.charAt(at) == '0') {
                at++;
            } else if (s.charAt(at) >= '1' && s.charAt(at) <= '9') {
                while (at < s.length() && Character.isDigit(s.charAt(at)) && s.charAt(at) < 128) at++;
            } else {
                throw error("bad number");
            }
            boolean integral = true;
            if (at < s.length() && s.charAt(at) == '.') {
                integral = false;
                at++;
                int digits = at;
                while (at < s.length() && s.charAt(at) >= '0' && s.charAt(at) <= '9') at++;
                if (at == digits) throw error("bad number: no digit after '.'");
            }
            if (at < s.length() && (s.charAt(at) == 'e' || s.charAt(at) == 'E')) {
                integral = false;
                at++;
                if (at < s.length() && (s.charAt(at) == '+' || s.charAt(at) == '-')) at++;
                int digits = at;
                while (at < s.length() && s.charAt(at) >= '0' && s.charAt(at) <= '9') at++;
                if (at == digits) throw error("bad number: no exponent digits");
            }
            if (integral && at - start < 19) { // at most 18 digits: a long, read in place
                boolean negative = s.charAt(start) == '-';
                long value = 0;
                for (int i = negative ? start + 1 : start; i < at; i++) value = value * 10 + (s.charAt(i) - '0');
                return negative ? -value : value;
            }
            String text = s.substring(start, at);
            if (integral) {
                BigInteger big = new BigInteger(text);
                if (big.bitLength() < 64) return big.longValue();
                if (big.signum() > 0 && big.bitLength() == 64) return big; // up to 2^64 - 1, as effect ids go
            }
            double d = Double.parseDouble(text);
            if (Double.isInfinite(d)) throw error("number out of range");
            return d;
        }
    }

    // -- writing ---------------------------------------------------------------------

    /** Writes a value as compact JSON. Throws {@link ArgumentException} for what JSON cannot hold. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out, 0);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out, int depth) {
        if (depth > MAX_DEPTH) throw new ArgumentException("Json.write: nested deeper than " + MAX_DEPTH);
        if (value == null) {
            out.append("null");
        } else if (value instanceof String string) {
            quote(string, out);
        } else if (value instanceof Boolean) {
            out.append(value);
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short
                || value instanceof Byte || value instanceof BigInteger) {
            out.append(value);
        } else if (value instanceof Double || value instanceof Float) {
            writeDouble(((Number) value).doubleValue(), out);
        } else if (value instanceof BigDecimal decimal) {
            out.append(decimal.toString());
        } else if (value instanceof Raw raw) {
            out.append(raw.text());
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!(entry.getKey() instanceof String key)) {
                    throw new ArgumentException("Json.write: object keys must be strings, not " + entry.getKey());
                }
                if (!first) out.append(',');
                first = false;
                quote(key, out);
                out.append(':');
                write(entry.getValue(), out, depth + 1);
            }
            out.append('}');
        } else if (value instanceof Iterable<?> items) {
            out.append('[');
            boolean first = true;
            for (Object item : items) {
                if (!first) out.append(',');
                first = false;
                write(item, out, depth + 1);
            }
            out.append(']');
        } else if (value instanceof Object[] items) {
            write(java.util.Arrays.asList(items), out, depth);
        } else {
            throw new ArgumentException("Json.write: cannot write a " + value.getClass().getName() + " as JSON");
        }
    }

    /** Integral doubles keep a ".0" (as the library writes them), so they stay doubles. */
    private static void writeDouble(double d, StringBuilder out) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new ArgumentException("Json.write: " + d + " is not a JSON number");
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            if (d == 0 && 1 / d < 0) {
                out.append("-0.0");
            } else {
                out.append((long) d).append(".0");
            }
            return;
        }
        out.append(Double.toString(d)); // "1.0E20": valid JSON, the same double
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                case '\b': out.append("\\b"); break;
                case '\f': out.append("\\f"); break;
                default:
                    // Control characters and lone surrogates are escaped, so the text stays
                    // valid UTF-8 and the library judges the code point itself.
                    boolean lone = Character.isSurrogate(c) && !(Character.isHighSurrogate(c)
                            && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1)));
                    if (Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(s.charAt(i - 1))) lone = false;
                    if (c < 0x20 || lone) {
                        out.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 15])
                           .append(HEX[(c >> 4) & 15]).append(HEX[c & 15]);
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }

    // -- bytes -----------------------------------------------------------------------

    /**
     * The UTF-8 bytes of a string for the library. A lone surrogate (which UTF-8 cannot
     * hold) is written as its three-byte form, so the library sees invalid UTF-8 and says
     * so, instead of a silently substituted character.
     */
    static byte[] utf8(String s) {
        boolean plain = true;
        for (int i = 0; i < s.length(); i++) {
            if (Character.isSurrogate(s.charAt(i))) {
                plain = false;
                break;
            }
        }
        if (plain) return s.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            int code = c;
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                code = Character.toCodePoint(c, s.charAt(++i));
            }
            if (code < 0x80) {
                out.write(code);
            } else if (code < 0x800) {
                out.write(0xC0 | (code >> 6));
                out.write(0x80 | (code & 0x3F));
            } else if (code < 0x10000) {
                out.write(0xE0 | (code >> 12));
                out.write(0x80 | ((code >> 6) & 0x3F));
                out.write(0x80 | (code & 0x3F));
            } else {
                out.write(0xF0 | (code >> 18));
                out.write(0x80 | ((code >> 12) & 0x3F));
                out.write(0x80 | ((code >> 6) & 0x3F));
                out.write(0x80 | (code & 0x3F));
            }
        }
        return out.toByteArray();
    }

    /** {@link #utf8} for a value that must not hold NUL (the C side would cut it there). */
    static byte[] cString(String s, String what) {
        if (s == null) throw new ArgumentException(what + " must not be null");
        if (s.indexOf('\0') >= 0) throw new ArgumentException(what + " contains a NUL character");
        return utf8(s);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object value) {
        return value instanceof Map ? (Map<String, Object>) value : Collections.emptyMap();
    }
}
