"""Use cases: load with repositories, apply a rule, save. The unit of work's owner commits."""
