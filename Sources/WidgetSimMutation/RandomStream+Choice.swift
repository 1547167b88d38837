import WidgetSim

extension RandomStream {
    /// One element of a non-empty array, uniformly.
    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[nextInt(below: elements.count)]
    }

    /// One value, with probability proportional to its weight.
    /// - Precondition: the weights are positive.
    mutating func weighted<Value>(_ choices: [(weight: Int, value: Value)]) -> Value {
        let total = choices.reduce(0) { $0 + $1.weight }
        var draw = nextInt(below: total)
        for choice in choices {
            if draw < choice.weight { return choice.value }
            draw -= choice.weight
        }
        return choices[choices.count - 1].value
    }

    /// How many edits to make: usually one, sometimes up to `most`, so that
    /// most mutants differ from a valid input in one place and fail for one reason.
    mutating func editCount(most: Int) -> Int {
        var count = 1
        while count < most && nextBool(probability: 0.4) { count += 1 }
        return count
    }
}
