"""Use cases: load with repositories, apply a rule, save, commit once — before the reply is sent.

They run inside the update's unit of work (opened by ``UnitOfWorkMiddleware``, which also holds
the update's processed-claim in the same transaction), so the effects and the claim commit
together. The middleware's closing commit covers updates that change nothing else.
"""
