# HomeBuddy Proactive, standalone mode: the HA-free engine behind its own aiohttp server.
# The python:3.13-slim image is multi-arch (amd64, arm64 for a Raspberry Pi 5).
#   docker build -t homebuddy-proactive .
#   docker run -d -p 18743:18743 -v homebuddy-data:/data \
#     -e OLLAMA_BASE_URL=http://192.168.68.112:11434 -e AUTH_PASSWORD=... homebuddy-proactive
FROM python:3.13-slim

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/homebuddy.db \
    PORT=18743

WORKDIR /app

RUN groupadd --system --gid 10001 homebuddy \
    && useradd --system --uid 10001 --gid homebuddy --home-dir /app --no-create-home \
       --shell /usr/sbin/nologin homebuddy \
    && mkdir -p /data \
    && chown homebuddy:homebuddy /data

# Only the engine's runtime dependencies: no Home Assistant in this image.
COPY requirements/runtime.txt requirements/runtime.txt
RUN pip install --no-cache-dir -r requirements/runtime.txt

COPY custom_components/homebuddy_proactive/engine/ custom_components/homebuddy_proactive/engine/
COPY scripts/serve.py scripts/simulator.py scripts/
COPY simulator-input/ simulator-input/
RUN python -m compileall -q custom_components scripts

USER homebuddy
VOLUME /data
EXPOSE 18743

HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "scripts/serve.py", "--check-health"]

CMD ["python", "scripts/serve.py"]
