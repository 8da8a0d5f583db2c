import Testing
@testable import CoolcalModel

@Suite struct CivilTimeTests {
    @Test func epochAndKnownDays() {
        #expect(CivilDateTime(year: 1970, month: 1, day: 1).secondsAsUTC == 0)
        #expect(CivilDateTime(year: 2000, month: 3, day: 1).secondsAsUTC == 951_868_800)
        #expect(CivilDateTime(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59).secondsAsUTC == -1)
    }

    @Test(arguments: [Int64(-2_208_988_800), -1, 0, 951_782_400, 1_709_000_000, 4_102_444_799, 253_402_300_799])
    func roundTrip(_ seconds: Int64) {
        #expect(CivilDateTime(utcSeconds: seconds).secondsAsUTC == seconds)
    }

    @Test func leapYearsAndDayArithmetic() {
        #expect(CivilDateTime(year: 2024, month: 2, day: 29).isValid)
        #expect(!CivilDateTime(year: 2023, month: 2, day: 29).isValid)
        #expect(!CivilDateTime(year: 1900, month: 2, day: 29).isValid)
        #expect(CivilDateTime(year: 2000, month: 2, day: 29).isValid)
        #expect(CivilDateTime(year: 2024, month: 2, day: 28).addingDays(2) == CivilDateTime(year: 2024, month: 3, day: 1))
        #expect(CivilDateTime(year: 2025, month: 1, day: 1).days(since: CivilDateTime(year: 2024, month: 1, day: 1)) == 366)
    }

    @Test func formatting() {
        #expect(CivilDateTime(year: 2022, month: 8, day: 20, hour: 8, minute: 5, second: 9).utcString == "2022-08-20T08:05:09Z")
        #expect(CivilDateTime(year: 999, month: 1, day: 2).dateString == "0999-01-02")
    }
}
