package dev.corelogic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The binding's JSON reader and writer: the kinds of values, the library's strictness. */
class JsonTest {
    @Test
    void numbersKeepTheirKindAndDigits() {
        assertEquals(List.of(1L, new BigInteger("18446744073709551615"), 1.0, 100.0, 2.5),
                Json.parse("[1,18446744073709551615,1.0,1e2,2.5]"));
        assertEquals("[1,18446744073709551615,1.0,100.0,2.5,-0.0]",
                Json.write(List.of(1L, new BigInteger("18446744073709551615"), 1.0, 100.0, 2.5, -0.0)));
        assertThrows(JsonException.class, () -> Json.parse("1e400"));
    }

    @Test
    void integersReadInPlaceMatchLongParsingAtEveryLength() {
        // Up to 18 digits are read in place, longer ones through Long and BigInteger.
        for (String digits : List.of("0", "7", "42", "999999999999999999", "123456789012345678",
                "1000000000000000000", "9223372036854775807")) {
            assertEquals(Long.parseLong(digits), Json.parse(digits));
            assertEquals(Long.parseLong("-" + digits), Json.parse("-" + digits));
        }
        assertEquals(new BigInteger("9223372036854775808"), Json.parse("9223372036854775808"));
        assertEquals(List.of(5L, -12L), Json.parse("[5,-12]"));
    }

    @Test
    void theBatchWordsReadAsEqualStrings() {
        Map<String, Object> operation = new LinkedHashMap<>();
        operation.put("op", "replace");
        operation.put("path", "/count");
        operation.put("value", 3L);
        assertEquals(List.of(operation), Json.parse("[{\"op\":\"replace\",\"path\":\"/count\",\"value\":3}]"));
        assertEquals(Map.of("stat", "states", "ops", "o\"p"), Json.parse("{\"stat\":\"states\",\"ops\":\"o\\\"p\"}"));
    }

    @Test
    void membersKeepTheirOrderAndStringsRoundTrip() {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("b", "tab\there \"quoted\" \u00e9 \uD83D\uDE00");
        object.put("a", null);
        String text = Json.write(object);
        assertEquals("{\"b\":\"tab\\there \\\"quoted\\\" \u00e9 \uD83D\uDE00\",\"a\":null}", text);
        assertEquals(object, Json.parse(text));
        assertEquals(List.of("b", "a"), List.copyOf(((Map<?, ?>) Json.parse(text)).keySet()));
    }

    @Test
    void whatTheLibraryRejectsIsRejected() {
        assertThrows(JsonException.class, () -> Json.parse("{\"a\":1,\"a\":2}"));
        assertThrows(JsonException.class, () -> Json.parse("\"\\ud800\""));
        assertThrows(JsonException.class, () -> Json.parse("\"\\udc00\""));
        assertThrows(JsonException.class, () -> Json.parse("\"\\u12\""));
        assertThrows(JsonException.class, () -> Json.parse("[1,]"));
        assertThrows(JsonException.class, () -> Json.parse("01"));
        assertThrows(JsonException.class, () -> Json.parse("[1] x"));
        assertEquals("\uD83D\uDE00", Json.parse("\"\\ud83d\\ude00\""));
        assertThrows(JsonException.class, () -> Json.parse("[".repeat(129) + "]".repeat(129), 128, true));
        assertEquals(List.of(), Json.parse("[".repeat(128) + "]".repeat(128), 128, true) instanceof List<?> l ? List.of() : null);
    }

    @Test
    void valuesJsonCannotHoldAreArgumentErrors() {
        assertThrows(ArgumentException.class, () -> Json.write(Double.NaN));
        assertThrows(ArgumentException.class, () -> Json.write(Map.of(1, 2)));
        assertThrows(ArgumentException.class, () -> Json.write(new Object()));
        assertEquals("\"\\ud800\"", Json.write("\uD800"));
    }
}
