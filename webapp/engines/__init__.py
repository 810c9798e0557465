"""Pure-Python game maths for the calculators: plain data in, exact results out."""
