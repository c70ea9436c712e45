#!/usr/bin/env bash
# A sample file for the file tree; not run by anything.
echo "starting"
