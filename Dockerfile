# syntax=docker/dockerfile:1
# Build stage: install the project and its dependencies into a virtualenv.
FROM python:3.11-slim AS build
WORKDIR /src
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY handlers ./handlers
COPY engine ./engine
COPY db ./db
COPY webapp ./webapp
COPY tabletop ./tabletop
RUN /opt/venv/bin/pip install .

# Runtime stage: only the virtualenv, run as an unprivileged user.
FROM python:3.11-slim
RUN useradd --create-home --uid 10001 bot
COPY --from=build /opt/venv /opt/venv
ENV PATH="/opt/venv/bin:$PATH" PYTHONUNBUFFERED=1
WORKDIR /home/bot
USER 10001
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["python", "-m", "bot.healthcheck"]
CMD ["python", "-m", "tabletop"]
