"""The step machine: a step opened, its orders in force, resolved and recorded, its results taken out, and the
texts and corrections made from its record."""
