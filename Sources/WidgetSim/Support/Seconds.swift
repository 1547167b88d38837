/// Seconds in common calendar units, for readable arithmetic on `SimTime`.
public enum Seconds {
    public static let minute = 60
    public static let hour = 3_600
    public static let day = 86_400
}
